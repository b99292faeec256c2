// etcd 3.6, as upstream's server binary: `go install` of etcd's main module is refused.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
