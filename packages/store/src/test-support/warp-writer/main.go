// Writes tool-fixtures/warp-get.csv (compressed to .csv.zst by the test support) with warp's own
// CSV writer: Operation, Operations.CSV, Operation.WriteCSV, csvEscapeString and
// fieldNeedsQuotes are copied verbatim from github.com/minio/warp (pkg/bench/ops.go, csv.go at
// d06f8e6), as warp itself could not be built offline. The operations are a small GET
// benchmark: its prepared objects (PUT), then GETs with first bytes and two failures.
//
//	go run . > ../tool-fixtures/warp-get.csv
package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

type Categories uint64

type Operations []Operation

type Operation struct {
	Start      time.Time  `json:"start"`
	End        time.Time  `json:"end"`
	FirstByte  *time.Time `json:"first_byte"`
	LastByte   *time.Time `json:"last_byte"`
	OpType     string     `json:"type"`
	Err        string     `json:"err"`
	File       string     `json:"file,omitempty"`
	ClientID   string     `json:"client_id"`
	Endpoint   string     `json:"endpoint"`
	ObjPerOp   int        `json:"ops"`
	Size       int64      `json:"size"`
	Thread     uint32     `json:"thread"`
	Categories Categories `json:"cat"`
}

func (o Operations) CSV(w io.Writer, comment string) error {
	bw := bufio.NewWriter(w)
	_, err := bw.WriteString("idx\tthread\top\tclient_id\tn_objects\tbytes\tendpoint\tfile\terror\tstart\tfirst_byte\tlast_byte\tend\tduration_ns\tcat\n")
	if err != nil {
		return err
	}

	for i, op := range o {
		if err := op.WriteCSV(bw, i); err != nil {
			return err
		}
	}
	if len(comment) > 0 {
		lines := strings.SplitSeq(comment, "\n")
		for txt := range lines {
			_, err := bw.WriteString("# " + txt + "\n")
			if err != nil {
				return err
			}
		}
	}

	return bw.Flush()
}

func (o Operation) WriteCSV(w io.Writer, i int) error {
	var firstByte, lastByte string
	if o.FirstByte != nil {
		firstByte = o.FirstByte.Format(time.RFC3339Nano)
	}
	if o.LastByte != nil {
		lastByte = o.LastByte.Format(time.RFC3339Nano)
	}
	_, err := fmt.Fprintf(w, "%d\t%d\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n", i, o.Thread, o.OpType, o.ClientID, o.ObjPerOp, o.Size, csvEscapeString(o.Endpoint), o.File, csvEscapeString(o.Err), o.Start.Format(time.RFC3339Nano), firstByte, lastByte, o.End.Format(time.RFC3339Nano), o.End.Sub(o.Start)/time.Nanosecond, o.Categories)
	return err
}

func fieldNeedsQuotes(field string) bool {
	const comma = '\t'
	if field == "" {
		return false
	}
	if field == `\.` || strings.ContainsRune(field, comma) || strings.ContainsAny(field, "\"\r\n") {
		return true
	}

	r1, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r1)
}

func csvEscapeString(field string) string {
	if !fieldNeedsQuotes(field) {
		return field
	}
	var w strings.Builder
	w.WriteByte('"')

	for len(field) > 0 {
		// Search for special characters.
		i := strings.IndexAny(field, "\"\r\n")
		if i < 0 {
			i = len(field)
		}

		// Copy verbatim everything before the special character.
		w.WriteString(field[:i])
		field = field[i:]

		// Encode the special character.
		if len(field) > 0 {
			switch field[0] {
			case '"':
				_, _ = w.WriteString(`""`)
			case '\r':
				_ = w.WriteByte('\r')
			case '\n':
				_ = w.WriteByte('\n')
			}
			field = field[1:]
		}
	}
	w.WriteByte('"')
	return w.String()
}

func main() {
	rng := rand.New(rand.NewSource(21))
	zone := time.FixedZone("CET", 3600)
	at := time.Date(2025, 3, 14, 9, 26, 53, 589793238, zone)
	endpoint := "http://127.0.0.1:9000"
	const threads = 4
	const size = 1 << 20
	var ops Operations
	// warp get: the objects it reads are uploaded first, and recorded as PUTs.
	for i := 0; i < 16; i++ {
		thread := uint32(i % threads)
		start := at.Add(time.Duration(i/threads) * 9 * time.Millisecond)
		end := start.Add(time.Duration(4000+rng.Intn(4000)) * time.Microsecond)
		ops = append(ops, Operation{OpType: "PUT", Thread: thread, Size: size, File: fmt.Sprintf("(%d).rnd", i), ObjPerOp: 1, Endpoint: endpoint, Start: start, End: end})
	}
	at = at.Add(50 * time.Millisecond)
	for i := 0; i < 200; i++ {
		thread := uint32(i % threads)
		start := at.Add(time.Duration(i/threads)*3*time.Millisecond + time.Duration(rng.Intn(500))*time.Microsecond)
		firstByte := start.Add(time.Duration(300+rng.Intn(700)) * time.Microsecond)
		end := firstByte.Add(time.Duration(800+rng.Intn(1500)) * time.Microsecond)
		if i == 150 {
			end = end.Add(40 * time.Millisecond)
		}
		op := Operation{OpType: "GET", Thread: thread, Size: size, File: fmt.Sprintf("(%d).rnd", i%16), ObjPerOp: 1, Endpoint: endpoint, Start: start, End: end}
		switch i {
		case 77:
			op.Err = "The specified key does not exist."
		case 123:
			op.Err = "read tcp 127.0.0.1:50122->127.0.0.1:9000: read: connection reset by peer\n\"retry\""
		default:
			op.FirstByte = &firstByte
		}
		ops = append(ops, op)
	}
	// As warp does before writing (Operations.SortByStartTime).
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Start.Before(ops[j].Start) })
	if err := ops.CSV(os.Stdout, "warp get --host=127.0.0.1:9000 --access-key=*REDACTED* --secret-key=*REDACTED* --concurrent=4 --obj.size=1MiB --objects=16 --duration=1s --benchdata=warp-get"); err != nil {
		panic(err)
	}
}
