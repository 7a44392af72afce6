package index

import "slices"

// bigramIndex holds the pairs of terms that are next to each other in a
// field of a tool (stop words left out), with the tools that have each
// pair and the pair's bonus for them. It is built at once from the pairs
// indexing meets, into flat arrays; a lookup is a binary search.
type bigramIndex struct {
	first  []int32 // by term a: the pairs that start with a are pairs first[a] to first[a+1]-1
	second []int32 // by pair: its second term, ascending among the pairs of one first term
	start  []int32 // by pair: its postings are post[start[k]:start[k+1]]; one more than the pairs
	post   []bigramPosting
}

// A bigramPosting is one tool's bonus for one pair.
type bigramPosting struct {
	doc   int32
	score float32
}

// A bigramOcc is a pair met while indexing: terms a and b next to each
// other in a field of tool doc whose weight is w.
type bigramOcc struct {
	a, b, doc int32
	w         float32
}

// lookup returns the postings of the pair (a, b), in load order.
func (bi *bigramIndex) lookup(a, b int32) []bigramPosting {
	if a < 0 || int(a)+1 >= len(bi.first) {
		return nil
	}
	lo, hi := bi.first[a], bi.first[a+1]
	i, ok := slices.BinarySearch(bi.second[lo:hi], b)
	if !ok {
		return nil
	}
	k := lo + int32(i)
	return bi.post[bi.start[k]:bi.start[k+1]]
}

// build makes the index from occs, which are in load order, over a
// vocabulary of nterms terms and n tools. A tool that has a pair in
// several fields gets the bonus of the heaviest; rarer pairs get more.
// build reuses occs as working space.
func (bi *bigramIndex) build(occs []bigramOcc, nterms, n int) {
	// Sort by (a, b), keeping load order among equal pairs: a stable
	// counting sort by b, then one by a.
	tmp := make([]bigramOcc, len(occs))
	countingSort(tmp, occs, nterms, func(o *bigramOcc) int32 { return o.b })
	countingSort(occs, tmp, nterms, func(o *bigramOcc) int32 { return o.a })

	bi.first = make([]int32, nterms+1)
	bi.post = make([]bigramPosting, 0, len(occs))
	for i := 0; i < len(occs); {
		a, b := occs[i].a, occs[i].b
		bi.second = append(bi.second, b)
		bi.start = append(bi.start, int32(len(bi.post)))
		bi.first[a+1]++
		from := len(bi.post)
		for ; i < len(occs) && occs[i].a == a && occs[i].b == b; i++ {
			o := &occs[i]
			if last := len(bi.post) - 1; last >= from && bi.post[last].doc == o.doc {
				bi.post[last].score = max(bi.post[last].score, o.w)
			} else {
				bi.post = append(bi.post, bigramPosting{o.doc, o.w})
			}
		}
		ps := bi.post[from:]
		w := bigramWeight * idf(n, len(ps))
		for j := range ps {
			fw := float64(ps[j].score)
			ps[j].score = float32(w * fw / (k1 + fw))
		}
	}
	bi.start = append(bi.start, int32(len(bi.post)))
	for a := range nterms {
		bi.first[a+1] += bi.first[a]
	}
	bi.post = slices.Clip(bi.post)
}

// countingSort copies src into dst ordered by key, which lies in [0, n);
// elements with equal keys keep their order.
func countingSort(dst, src []bigramOcc, n int, key func(*bigramOcc) int32) {
	pos := make([]int32, n+1)
	for i := range src {
		pos[key(&src[i])+1]++
	}
	for k := range n {
		pos[k+1] += pos[k]
	}
	for i := range src {
		k := key(&src[i])
		dst[pos[k]] = src[i]
		pos[k]++
	}
}
