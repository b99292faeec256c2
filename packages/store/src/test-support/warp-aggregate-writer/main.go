// Writes tool-fixtures/warp-get.json (compressed to .json.zst) as warp writes its final aggregate
// (cli/benchmark.go: json.Encoder with SetIndent("", "  ") of an aggregate.Realtime). The types
// below are warp's own (pkg/aggregate: Realtime, LiveAggregate, Throughput, RequestSegment,
// SingleSizedRequests, MapAsSlice's MarshalJSON) at d06f8e6, with the fields it leaves empty
// in this run (omitempty) and those TailLab does not read cut, as warp could not be built
// offline. A GET benchmark of 2 warp clients, each with three request segments.
//
//	go run . > ../tool-fixtures/warp-get.json
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"time"
)

type MapAsSlice map[string]struct{}

func (m MapAsSlice) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	var dst bytes.Buffer
	dst.WriteByte('[')
	x := make([]string, 0, len(m))
	for k := range m {
		x = append(x, k)
	}
	sort.Strings(x)
	for i, k := range x {
		dst.WriteByte('"')
		json.HTMLEscape(&dst, []byte(k))
		dst.WriteByte('"')
		if i < len(x)-1 {
			dst.WriteByte(',')
		}
	}
	dst.WriteByte(']')
	return dst.Bytes(), nil
}

type Realtime struct {
	DataVersion int                       `json:"v"`
	Commandline string                    `json:"commandline"`
	Final       bool                      `json:"final"`
	WarpVersion string                    `json:"warp_version,omitempty"`
	WarpCommit  string                    `json:"warp_commit,omitempty"`
	WarpDate    string                    `json:"warp_date,omitempty"`
	Total       LiveAggregate             `json:"total"`
	ByOpType    map[string]*LiveAggregate `json:"by_op_type,omitempty"`
}

type LiveAggregate struct {
	Title              string
	TotalRequests      int                        `json:"total_requests"`
	TotalObjects       int                        `json:"total_objects"`
	TotalErrors        int                        `json:"total_errors"`
	TotalBytes         int64                      `json:"total_bytes"`
	Concurrency        int                        `json:"concurrency"`
	StartTime          time.Time                  `json:"start_time"`
	EndTime            time.Time                  `json:"end_time"`
	FirstErrors        []string                   `json:"first_errors"`
	Hosts              MapAsSlice                 `json:"hosts"`
	Clients            MapAsSlice                 `json:"clients"`
	Throughput         Throughput                 `json:"throughput"`
	ThroughputByHost   map[string]Throughput      `json:"throughput_by_host"`
	ThroughputByClient map[string]Throughput      `json:"throughput_by_client"`
	Requests           map[string]RequestSegments `json:"requests_by_client"`
}

type Throughput struct {
	StartTime             time.Time `json:"start_time"`
	EndTime               time.Time `json:"end_time"`
	Errors                int       `json:"errors"`
	MeasureDurationMillis int       `json:"measure_duration_millis"`
	Bytes                 float64   `json:"bytes"`
	Objects               float64   `json:"objects"`
	Operations            int       `json:"ops"`
	OpType                string    `json:"op_type,omitempty"`
}

type RequestSegment struct {
	StartTime time.Time            `json:"start_time"`
	EndTime   time.Time            `json:"end_time"`
	Single    *SingleSizedRequests `json:"single_sized_requests,omitempty"`
}

type RequestSegments []RequestSegment

type SingleSizedRequests struct {
	HostNames       MapAsSlice    `json:"host_names,omitempty"`
	DurPct          *[101]float64 `json:"dur_percentiles_millis,omitempty"`
	DurMedianMillis float64       `json:"dur_median_millis"`
	FastestMillis   float64       `json:"fastest_millis"`
	SlowestMillis   float64       `json:"slowest_millis"`
	StdDev          float64       `json:"std_dev_millis"`
	Dur99Millis     float64       `json:"dur_99_millis"`
	Dur90Millis     float64       `json:"dur_90_millis"`
	DurAvgMillis    float64       `json:"dur_avg_millis"`
	Requests        int           `json:"requests"`
	ObjSize         int64         `json:"obj_size"`
	Skipped         bool          `json:"skipped,omitempty"`
	MergedEntries   int           `json:"merged_entries"`
}

func segment(start time.Time, requests int, median, p90, p99, fastest, slowest, avg, stdev float64) RequestSegment {
	var pct [101]float64
	for i := range pct {
		pct[i] = fastest + (slowest-fastest)*float64(i*i)/10000
	}
	return RequestSegment{
		StartTime: start,
		EndTime:   start.Add(15 * time.Second),
		Single: &SingleSizedRequests{
			HostNames: MapAsSlice{"127.0.0.1:9000": {}}, DurPct: &pct, DurMedianMillis: median,
			FastestMillis: fastest, SlowestMillis: slowest, StdDev: stdev, Dur99Millis: p99,
			Dur90Millis: p90, DurAvgMillis: avg, Requests: requests, ObjSize: 1 << 20, MergedEntries: 1,
		},
	}
}

func main() {
	zone := time.FixedZone("CET", 3600)
	start := time.Date(2025, 3, 14, 9, 26, 53, 589793238, zone)
	end := start.Add(45*time.Second + 123*time.Millisecond)
	const requests, errors = 41230, 3
	tp := Throughput{StartTime: start, EndTime: end, Errors: errors, MeasureDurationMillis: 45123, Bytes: float64(requests) * (1 << 20), Objects: requests, Operations: requests}
	get := LiveAggregate{
		Title: "GET (Final)", TotalRequests: requests, TotalObjects: requests, TotalErrors: errors,
		TotalBytes: requests << 20, Concurrency: 32, StartTime: start, EndTime: end,
		FirstErrors: []string{"The specified key does not exist.", "The specified key does not exist.", "context deadline exceeded"},
		Hosts:       MapAsSlice{"127.0.0.1:9000": {}}, Clients: MapAsSlice{"client-a": {}, "client-b": {}},
		Throughput: tp, ThroughputByHost: map[string]Throughput{"127.0.0.1:9000": tp}, ThroughputByClient: map[string]Throughput{},
		Requests: map[string]RequestSegments{
			"client-a": {
				segment(start, 6871, 2.8, 4.1, 7.9, 1.2, 41.7, 3.0, 1.4),
				segment(start.Add(15*time.Second), 6903, 2.7, 4.0, 7.6, 1.1, 22.3, 2.9, 1.3),
				segment(start.Add(30*time.Second), 6841, 2.9, 4.3, 8.8, 1.3, 63.4, 3.1, 1.9),
			},
			"client-b": {
				segment(start, 6850, 2.9, 4.2, 8.1, 1.2, 38.2, 3.0, 1.5),
				segment(start.Add(15*time.Second), 6880, 2.8, 4.1, 7.7, 1.2, 19.9, 2.9, 1.3),
				segment(start.Add(30*time.Second), 6885, 2.8, 4.2, 8.4, 1.1, 57.0, 3.0, 1.7),
			},
		},
	}
	final := Realtime{
		DataVersion: 2, Final: true, WarpVersion: "1.1.4", WarpCommit: "d06f8e6", WarpDate: "2025-03-01T00:00:00Z",
		Commandline: "warp get --host=127.0.0.1:9000 --access-key=*REDACTED* --secret-key=*REDACTED* --concurrent=16 --obj.size=1MiB --duration=45s --warp-client=client-a,client-b",
		Total:       get, ByOpType: map[string]*LiveAggregate{"GET": &get},
	}
	js := json.NewEncoder(os.Stdout)
	js.SetIndent("", "  ")
	if err := js.Encode(final); err != nil {
		panic(err)
	}
}
