package simulator

import (
	"math"
	"math/rand/v2"
)

// Unexported names in the generator's files start with "gen" because the
// server's files share this package and are written at the same time.

// genRand is a deterministic generator on top of math/rand/v2's PCG. We draw
// through our own helpers rather than rand.Rand's methods because only the
// PCG algorithm itself is fixed, and because a value type keeps BulkListing
// free of heap allocations.
type genRand struct{ pcg rand.PCG }

// Streams: each concern of a business draws from its own sequence, so the
// cheap part (BulkListing) and the full business see the same numbers, and
// adding a draw to one concern never shifts another.
const (
	genStreamIdentity uint64 = iota + 1
	genStreamRisk
	genStreamTrade
	genStreamFiscal
	genStreamAmounts
	genStreamOfficers
	genStreamText
	genStreamNews
	genStreamUsers
	genStreamIndustry
	genStreamWeyl
)

// genMix is the splitmix64 finaliser: it spreads nearby inputs (seeds 1 and
// 2, ids 1001 and 1002) over unrelated outputs.
func genMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// newGenRand seeds a generator from the dataset seed, a key (usually the
// business id) and a stream.
func newGenRand(seed int64, key int64, stream uint64) genRand {
	a := genMix(uint64(seed) ^ genMix(uint64(key)+stream*0x632be59bd9b4e019))
	b := genMix(a ^ stream<<40 ^ uint64(key))
	var r genRand
	r.pcg.Seed(a, b)
	return r
}

// float returns a uniform value in [0, 1).
func (r *genRand) float() float64 { return float64(r.pcg.Uint64()>>11) * 0x1p-53 }

// next is one raw 64-bit draw. Hot loops split it with genU16 into four
// uniforms of 16 bits, plenty for monthly wobbles at a quarter of the cost
// of four draws (and small enough to inline, unlike a method returning an
// array).
func (r *genRand) next() uint64 { return r.pcg.Uint64() }

// genU16 is the k-th (0-3) 16-bit slice of a draw as a uniform in [0, 1).
func genU16(x uint64, k uint) float64 { return float64(x>>(16*k)&0xffff) * (1.0 / (1 << 16)) }

// genTriangular turns two uniforms into a variance-1 triangular value, the
// same shape norm draws.
func genTriangular(a, b float64) float64 { return (a + b - 1) * 2.449489742783178 }

// intn returns a value in [0, n); the tiny bias of multiply-shift does not
// matter for demo data.
func (r *genRand) intn(n int) int {
	return int((r.pcg.Uint64() >> 32) * uint64(n) >> 32)
}

// between returns an integer in [lo, hi].
func (r *genRand) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// uniform returns a value in [lo, hi).
func (r *genRand) uniform(lo, hi float64) float64 { return lo + (hi-lo)*r.float() }

// logUniform returns a value whose logarithm is uniform in [log lo, log hi).
func (r *genRand) logUniform(lo, hi float64) float64 {
	return math.Exp(r.uniform(math.Log(lo), math.Log(hi)))
}

// chance is true with probability p.
func (r *genRand) chance(p float64) bool { return r.float() < p }

// norm is a cheap stand-in for a standard normal draw: the triangular sum
// of two uniforms scaled to variance 1. It is bounded (±2.45), so no draw
// produces an absurd value, and costs two draws, which matters in
// BulkListing.
func (r *genRand) norm() float64 { return (r.float() + r.float() - 1) * 2.449489742783178 }

// weighted picks an index with probability proportional to its weight.
func (r *genRand) weighted(w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	u := r.float() * total
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	return len(w) - 1
}

// shuffle permutes the first n indexes of swap in place (Fisher-Yates).
func (r *genRand) shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.intn(i+1))
	}
}

// genWeyl returns the id-th point of an additive recurrence with a
// seed-dependent start. Consecutive ids fill [0, 1) far more evenly than
// independent draws, so population shares (public, risk bands) come out
// close to their targets in any few hundred ids while each business still
// depends on nothing but (seed, id).
func genWeyl(seed int64, id int32, alpha float64, salt uint64) float64 {
	start := float64(genMix(uint64(seed)^salt*0x9e3779b97f4a7c15)>>11) * 0x1p-53
	_, f := math.Modf(float64(id)*alpha + start)
	return f
}

// Irrational steps for genWeyl; independent over the rationals so the shares
// they decide do not correlate.
var (
	genAlphaRisk   = (math.Sqrt(5) - 1) / 2
	genAlphaPublic = math.Sqrt(2) - 1
	genAlphaThin   = math.Sqrt(3) - 1
)

// genClamp limits x to [lo, hi].
// Plain comparisons: math.Max and math.Min spend time on NaN and signed
// zeros, which the generator never produces.
func genClamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// genRound2 rounds to two decimals, the precision of scores and percents.
func genRound2(x float64) float64 { return float64(genRoundInt(x*100)) / 100 }

// genRoundInt rounds half away from zero like math.Round, by plain
// conversion, which is several times faster in BulkListing's loops.
func genRoundInt(x float64) int64 {
	if x < 0 {
		return -int64(-x + 0.5)
	}
	return int64(x + 0.5)
}

// genRound1k rounds a statement amount to whole thousands of dollars.
func genRound1k(x float64) float64 { return math.Round(x/1000) * 1000 }
