module taillab/warp-writer

go 1.24
