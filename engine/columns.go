package engine

// Columns is room for the columns of batches made one after another and
// done with together: a Monte Carlo of many scenarios on one core makes a
// batch for each, of the same size. Each batch made in it takes its
// columns from the room the batches before it gave back, instead of the
// heap. A Columns is for one goroutine at a time.
type Columns struct {
	free, lent [][]float64
}

// Reuse takes back every column lent since the last Reuse: no batch made
// in c before it may run, or be read, again.
func (c *Columns) Reuse() {
	c.free = append(c.free, c.lent...)
	clear(c.lent)
	c.lent = c.lent[:0]
}

// column is room for n values, as they were left; from the heap, zeroed,
// when c is nil.
func (c *Columns) column(n int) []float64 {
	if c == nil {
		return make([]float64, n)
	}
	var col []float64
	if k := len(c.free) - 1; k >= 0 && cap(c.free[k]) >= n {
		col, c.free[k] = c.free[k][:n], nil
		c.free = c.free[:k]
	} else {
		col = make([]float64, n)
	}
	c.lent = append(c.lent, col)
	return col
}

// zeros is a column of n zeros.
func (c *Columns) zeros(n int) []float64 {
	col := c.column(n)
	if c != nil {
		clear(col)
	}
	return col
}

// broadcast is a column of n values v.
func (c *Columns) broadcast(v float64, n int) []float64 {
	col := c.column(n)
	for i := range col {
		col[i] = v
	}
	return col
}
