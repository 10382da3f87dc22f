// Command gen rewrites the demo sample bundles: go run ./demo/gen -out demo/samples
package main

import (
	"flag"
	"fmt"
	"os"

	"benchlens/demo"
)

func main() {
	out := flag.String("out", "demo/samples", "folder to delete and rewrite")
	flag.Parse()
	if err := demo.Generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
