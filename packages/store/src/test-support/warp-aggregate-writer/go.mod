module taillab/warp-aggregate-writer

go 1.24
