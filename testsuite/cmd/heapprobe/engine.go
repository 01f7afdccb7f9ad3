//go:build !heapprobe_baseline

package main

import _ "github.com/jinjabox/jinjabox/engine" // its packages' init, nothing else
