package crawl

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sync"
)

// MaxPatternSize bounds the compiled size of one include or exclude
// pattern, in regexp program instructions (about 40 bytes each). Length
// alone is no bound: `\pL{1000}` is 9 bytes and 1,002 instructions, and
// fifty such 450-byte patterns compile to 50,000 instructions each, 26 ms
// and 11 MB apiece. URL patterns in practice take a few hundred.
const MaxPatternSize = 10_000

// compiled caches compiled patterns, so a crawl's patterns are compiled
// once: when the server validates the request, not again when the job
// runs the crawl in the same process.
var compiled = &patternCache{res: map[string]*regexp.Regexp{}}

// patternCacheSize bounds the cache; when full it starts over, which
// costs a recompile, never correctness. Compiled size is not memory: a
// \pL instruction carries a Unicode table, and a 512-byte pattern of them
// holds about 450 KB, so the cache holds at most about 30 MB.
const patternCacheSize = 64

type patternCache struct {
	mu  sync.Mutex
	res map[string]*regexp.Regexp
}

// get returns pattern compiled, checking its size before compiling it.
func (c *patternCache) get(pattern string) (*regexp.Regexp, error) {
	c.mu.Lock()
	re, ok := c.res[pattern]
	c.mu.Unlock()
	if ok {
		return re, nil
	}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("is not a valid Go regular expression: %w", err)
	}
	if n := programSize(parsed, MaxPatternSize+1); n > MaxPatternSize {
		return nil, fmt.Errorf("is too complex: it would compile to more than %d instructions (nested or large repetitions such as x{1000})", MaxPatternSize)
	}
	if re, err = regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("is not a valid Go regular expression: %w", err)
	}
	c.mu.Lock()
	if len(c.res) >= patternCacheSize {
		clear(c.res)
	}
	c.res[pattern] = re
	c.mu.Unlock()
	return re, nil
}

// programSize estimates, from the parse tree and without expanding it,
// how many instructions re compiles to (Simplify turns x{n,m} into m
// copies of x); it stops counting at limit.
func programSize(re *syntax.Regexp, limit int) int {
	sub := func() int {
		n := 0
		for _, s := range re.Sub {
			n += programSize(s, limit)
			if n >= limit {
				return limit
			}
		}
		return n
	}
	switch re.Op {
	case syntax.OpLiteral:
		return max(len(re.Rune), 1)
	case syntax.OpConcat, syntax.OpAlternate:
		return min(sub()+len(re.Sub), limit)
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return min(sub()+2, limit)
	case syntax.OpRepeat:
		copies := re.Max
		if copies < 0 {
			copies = re.Min + 1
		}
		inner := sub()
		if copies > 0 && inner >= limit/copies {
			return limit
		}
		return min(inner*copies+copies+1, limit)
	}
	return 1
}
