// Package ooxml is planner's surgery on xlsx packages: the zip and XML
// under a workbook. It reads the XML parts it edits one way (xmlread.go:
// the decoder, with where each element's bytes lie), so that it can edit a
// part and keep every other byte. A few reads stay byte scans on purpose,
// over XML excelize itself wrote or where a decode would cost what the
// answer does not need: the shared strings' starts (readview.go,
// stringStarts), an empty part (stylepart.go, BlankXML), a part's root
// namespace (normal.go, rootNamespace) and where <drawing> goes in a
// worksheet excelize wrote (charts.go, addDrawingElement). It recognises the files that are not workbooks planner
// can read (Sniff), works on every package in one form (a Strict one as
// Transitional, UTF-16 parts as UTF-8, the workbook part under xl/; see
// normal.go) and gives the user's form back, gives excelize only a view of
// a package (ReadView for
// reading; Build for writing, which merges what excelize wrote back into
// the user's package, every other part copied as it was, compressed bytes
// included), keeps the user's styles, protection and calculation chain as
// they wrote them, streams the rows of planner's sheets straight into their
// zip entries (Sheet.Rows), draws planner's charts afresh (a sheet's
// <drawing> element put in as the sheet is packed, where the sheet's pieces
// allow), writes every zip with compressors it keeps (zipwriter.go), sets
// the comments of a zip and of its entries (comment.go), and
// verifies every
// package it builds against the original, part by part (Verify). What
// excelize refuses while planner writes its sheets it puts in planner's
// words (Unlaid).
//
// It knows which sheets are planner's only by the names it is given, and
// nothing of what they hold. It must not import engine, formulas, cobra,
// or planner's other workbooks packages.
package ooxml
