// Package safefile keeps the files planner replaces safe: it saves
// atomically (a temporary file in the same folder, synced, given the old
// file's mode, renamed over it, the folder synced), and only over the file
// planner read (Original: the same file, size, time and bytes, checked
// last, and on Linux again at the rename by swapping the names and
// checking what was swapped out); it clears only the temporary files of
// its own that a killed save left behind, makes planner runs on one file
// take turns (Lock), and refuses a file that is read-only, open in Excel
// (~$name) or LibreOffice (.~lock.name#), or not a regular file. It knows
// nothing of what the files hold; its messages speak of workbooks, the
// only files planner saves.
//
// It must not import excelize, cobra, or any of planner's packages.
package safefile
