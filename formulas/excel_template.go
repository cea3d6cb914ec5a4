package formulas

import "strings"

// ExcelTemplate is a formula's Excel translation with its references left
// open: the same formula written in many places (a column per scenario)
// translates once, and each place fills in its own references.
type ExcelTemplate struct {
	c      *Checked
	env    Env
	pieces []string // the text around the references: one more than names
	names  []string // the names referred to, in the order Excel asks for them
}

// hole stands for a reference while the template is made; a formula whose
// own text holds one is translated afresh every time.
const hole = "\x00"

// ExcelTemplate translates c once for env. Fill then gives what Excel would,
// reference for reference.
func (c *Checked) ExcelTemplate(env Env) *ExcelTemplate {
	t := &ExcelTemplate{c: c, env: env}
	s, err := c.Excel(env, func(name string) (string, error) {
		t.names = append(t.names, name)
		return hole, nil
	})
	if err != nil || strings.Count(s, hole) != len(t.names) {
		t.pieces, t.names = nil, nil // Fill translates in full
		return t
	}
	t.pieces = strings.Split(s, hole)
	return t
}

// Fill is c.Excel(env, ref), env the template's: the translation does not depend on what ref
// gives, only on whether it fails, and it stops at the first failure, as
// Fill does. ref is asked for the same names in the same order.
func (t *ExcelTemplate) Fill(ref func(name string) (string, error)) (string, error) {
	if t.pieces == nil {
		return t.c.Excel(t.env, ref)
	}
	var room [16]string // most formulas name fewer: no allocation for them
	refs := room[:0]
	if len(t.names) > len(room) {
		refs = make([]string, 0, len(t.names))
	}
	n := len(t.pieces[0])
	for i, name := range t.names {
		r, err := ref(name)
		if err != nil {
			return t.c.Excel(t.env, ref) // its error, as Excel words it
		}
		refs = append(refs, r)
		n += len(r) + len(t.pieces[i+1])
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(t.pieces[0])
	for i, r := range refs {
		b.WriteString(r)
		b.WriteString(t.pieces[i+1])
	}
	return b.String(), nil
}
