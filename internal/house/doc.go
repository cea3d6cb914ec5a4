// Package house holds no code: its test checks that the floor plan in
// docs/ARCHITECTURE.md is the one the code has. Every package named there
// imports only the planner packages its row allows and none of the ones it
// must not, and every package of the module has a row and a doc.go.
//
// It must not import anything: it is the floor plan's test, not a room.
package house
