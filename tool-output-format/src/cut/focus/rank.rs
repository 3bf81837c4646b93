//! Lexical ranking: a lowercase tokenizer on Unicode word boundaries, a short stop-word list,
//! the Porter stemmer, and BM25 over a set of documents (the sections or rows).
//!
//! Why a hand-written stemmer rather than a crate: the well-kept crate (`rust-stemmers`,
//! Snowball English) derives serde traits and so adds `serde_derive` and `syn` to the build of
//! this runtime crate for one function. Porter's 1980 algorithm is short, fixed (it has not
//! changed in forty years), and is what BM25 setups used for decades; it is written out below
//! step by step after Porter's reference C version and checked against his published examples.

// BM25 turns counts into f64 scores (counts of terms and documents, far below 2^52); the
// stemmer keeps Porter's signed indices (`j`, `k` may step to -1), always in 0..len when used.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use unicode_segmentation::UnicodeSegmentation;

/// BM25 term-frequency saturation (the usual default).
pub(crate) const K1: f64 = 1.2;
/// BM25 length normalisation (the usual default).
pub(crate) const B: f64 = 0.75;

/// Words too common to say anything about relevance (questions are full of them).
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "but", "by", "can", "could", "did", "do", "does", "for", "from", "get",
    "got", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "just", "me",
    "my", "of", "on", "or", "our", "should", "so", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "to", "us", "was", "we", "were", "what", "when",
    "where", "which", "who", "why", "will", "with", "would", "you", "your",
];

/// Calls `f` with each search term of `text`: words on Unicode word boundaries (UAX #29),
/// further split at `.`, `_` and `:` (so `payments.refund_worker` gives three words),
/// lowercased, a trailing possessive `'s` dropped, stop words skipped, then stemmed.
pub(crate) fn for_each_term(text: &str, mut f: impl FnMut(&str)) {
    let mut lower = String::new();
    let mut stem_buf = Vec::new();
    for word in text.unicode_words() {
        for part in word.split(['.', '_', ':']) {
            if part.is_empty() {
                continue;
            }
            lower.clear();
            if part.is_ascii() {
                lower.push_str(part);
                lower.make_ascii_lowercase();
            } else {
                for c in part.chars() {
                    lower.extend(c.to_lowercase());
                }
            }
            let mut w = lower.as_str();
            for suffix in ["'s", "’s"] {
                if let Some(stripped) = w.strip_suffix(suffix) {
                    w = stripped;
                }
            }
            let w = w.trim_end_matches(['\'', '’']);
            // Stop words are at most 6 bytes: skip the search for longer words.
            if w.is_empty() || (w.len() <= 6 && STOP_WORDS.binary_search(&w).is_ok()) {
                continue;
            }
            if w.is_ascii() {
                stem_buf.clear();
                stem_buf.extend_from_slice(w.as_bytes());
                stem(&mut stem_buf);
                // Porter only removes or rewrites ASCII letters, so the bytes stay ASCII.
                f(std::str::from_utf8(&stem_buf).unwrap_or(w));
            } else {
                f(w);
            }
        }
    }
}

/// The distinct search terms of a query, in first-seen order.
pub(crate) fn query_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for_each_term(query, |t| {
        if !terms.iter().any(|x| x == t) {
            terms.push(t.to_string());
        }
    });
    terms
}

/// BM25 scores of `docs` (each given as its text) against `terms`.
///
/// `idf = ln(1 + (N - n + 0.5) / (n + 0.5))` (never negative), and each query term adds
/// `idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len / avg_len))`, where `len` counts the
/// document's terms after stop words.
pub(crate) fn bm25<'a>(terms: &[String], docs: impl Iterator<Item = &'a str>) -> Vec<f64> {
    // Per document: its length and the frequency of each query term.
    let mut tfs: Vec<(u32, Vec<u32>)> = Vec::new();
    for doc in docs {
        let mut len = 0u32;
        let mut tf = vec![0u32; terms.len()];
        for_each_term(doc, |t| {
            len += 1;
            if let Some(i) = terms.iter().position(|q| q == t) {
                tf[i] += 1;
            }
        });
        tfs.push((len, tf));
    }
    let n = tfs.len() as f64;
    if tfs.is_empty() {
        return Vec::new();
    }
    let avg_len = (tfs.iter().map(|(len, _)| f64::from(*len)).sum::<f64>() / n).max(1.0);
    let idf: Vec<f64> = (0..terms.len())
        .map(|i| {
            let df = tfs.iter().filter(|(_, tf)| tf[i] > 0).count() as f64;
            (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
        })
        .collect();
    tfs.iter()
        .map(|(len, tf)| {
            let norm = K1 * (1.0 - B + B * f64::from(*len) / avg_len);
            tf.iter()
                .zip(&idf)
                .filter(|(tf, _)| **tf > 0)
                .map(|(tf, idf)| {
                    let tf = f64::from(*tf);
                    idf * tf * (K1 + 1.0) / (tf + norm)
                })
                .sum()
        })
        .collect()
}

/// Porter's stemmer (1980) on a lowercase ASCII word, in place. Words of one or two letters
/// are left alone. Follows the reference C implementation step by step.
pub(crate) fn stem(word: &mut Vec<u8>) {
    if word.len() <= 2 || !word.iter().all(u8::is_ascii_lowercase) {
        return;
    }
    let mut s = Stemmer {
        b: std::mem::take(word),
        k: 0,
        j: 0,
    };
    s.k = s.b.len() as isize - 1;
    s.step1ab();
    if s.k > 0 {
        s.step1c();
        s.step2();
        s.step3();
        s.step4();
        s.step5();
    }
    s.b.truncate((s.k + 1) as usize);
    *word = s.b;
}

struct Stemmer {
    b: Vec<u8>,
    /// Index of the last letter of the current word.
    k: isize,
    /// Index of the last letter of the stem before the suffix `ends` matched.
    j: isize,
}

impl Stemmer {
    fn at(&self, i: isize) -> u8 {
        self.b[i as usize]
    }

    fn cons(&self, i: isize) -> bool {
        match self.at(i) {
            b'a' | b'e' | b'i' | b'o' | b'u' => false,
            b'y' => i == 0 || !self.cons(i - 1),
            _ => true,
        }
    }

    /// The number of vowel-consonant sequences in `b[0..=j]`.
    fn m(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        loop {
            if i > self.j {
                return n;
            }
            if !self.cons(i) {
                break;
            }
            i += 1;
        }
        i += 1;
        loop {
            loop {
                if i > self.j {
                    return n;
                }
                if self.cons(i) {
                    break;
                }
                i += 1;
            }
            i += 1;
            n += 1;
            loop {
                if i > self.j {
                    return n;
                }
                if !self.cons(i) {
                    break;
                }
                i += 1;
            }
            i += 1;
        }
    }

    fn vowel_in_stem(&self) -> bool {
        (0..=self.j).any(|i| !self.cons(i))
    }

    fn double_c(&self, j: isize) -> bool {
        j >= 1 && self.at(j) == self.at(j - 1) && self.cons(j)
    }

    /// consonant-vowel-consonant ending at `i`, the last consonant not w, x or y.
    fn cvc(&self, i: isize) -> bool {
        if i < 2 || !self.cons(i) || self.cons(i - 1) || !self.cons(i - 2) {
            return false;
        }
        !matches!(self.at(i), b'w' | b'x' | b'y')
    }

    fn ends(&mut self, s: &str) -> bool {
        let len = s.len() as isize;
        if len > self.k + 1 {
            return false;
        }
        let start = (self.k - len + 1) as usize;
        if &self.b[start..=(self.k as usize)] != s.as_bytes() {
            return false;
        }
        self.j = self.k - len;
        true
    }

    fn set_to(&mut self, s: &str) {
        let start = (self.j + 1) as usize;
        self.b.truncate(start);
        self.b.extend_from_slice(s.as_bytes());
        self.k = self.j + s.len() as isize;
    }

    fn r(&mut self, s: &str) {
        if self.m() > 0 {
            self.set_to(s);
        }
    }

    fn step1ab(&mut self) {
        if self.at(self.k) == b's' {
            if self.ends("sses") {
                self.k -= 2;
            } else if self.ends("ies") {
                self.set_to("i");
            } else if self.at(self.k - 1) != b's' {
                self.k -= 1;
            }
        }
        if self.ends("eed") {
            if self.m() > 0 {
                self.k -= 1;
            }
        } else if (self.ends("ed") || self.ends("ing")) && self.vowel_in_stem() {
            self.k = self.j;
            self.b.truncate((self.k + 1) as usize);
            if self.ends("at") {
                self.set_to("ate");
            } else if self.ends("bl") {
                self.set_to("ble");
            } else if self.ends("iz") {
                self.set_to("ize");
            } else if self.double_c(self.k) {
                self.k -= 1;
                if matches!(self.at(self.k), b'l' | b's' | b'z') {
                    self.k += 1;
                }
            } else {
                self.j = self.k;
                if self.m() == 1 && self.cvc(self.k) {
                    self.set_to("e");
                }
            }
        }
        self.b.truncate((self.k + 1) as usize);
    }

    fn step1c(&mut self) {
        if self.ends("y") && self.vowel_in_stem() {
            let k = self.k as usize;
            self.b[k] = b'i';
        }
    }

    fn step2(&mut self) {
        const RULES: &[(&str, &str)] = &[
            ("ational", "ate"),
            ("tional", "tion"),
            ("enci", "ence"),
            ("anci", "ance"),
            ("izer", "ize"),
            ("bli", "ble"),
            ("alli", "al"),
            ("entli", "ent"),
            ("eli", "e"),
            ("ousli", "ous"),
            ("ization", "ize"),
            ("ation", "ate"),
            ("ator", "ate"),
            ("alism", "al"),
            ("iveness", "ive"),
            ("fulness", "ful"),
            ("ousness", "ous"),
            ("aliti", "al"),
            ("iviti", "ive"),
            ("biliti", "ble"),
            ("logi", "log"),
        ];
        self.apply(RULES);
    }

    fn step3(&mut self) {
        const RULES: &[(&str, &str)] = &[
            ("icate", "ic"),
            ("ative", ""),
            ("alize", "al"),
            ("iciti", "ic"),
            ("ical", "ic"),
            ("ful", ""),
            ("ness", ""),
        ];
        self.apply(RULES);
    }

    /// The first rule whose suffix matches decides (the reference version switches on a
    /// letter and tries the suffixes in this order); it applies when `m() > 0`.
    fn apply(&mut self, rules: &[(&str, &str)]) {
        if self.k < 1 {
            return;
        }
        for (suffix, to) in rules {
            if self.ends(suffix) {
                self.r(to);
                return;
            }
        }
    }

    fn step4(&mut self) {
        const SUFFIXES: &[&str] = &[
            "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
        ];
        if self.k < 1 {
            return;
        }
        let mut found = SUFFIXES.iter().any(|s| self.ends(s));
        if !found && self.ends("ion") {
            found = self.j >= 0 && matches!(self.at(self.j), b's' | b't');
        }
        if !found {
            found = ["ou", "ism", "ate", "iti", "ous", "ive", "ize"]
                .iter()
                .any(|s| self.ends(s));
        }
        if found && self.m() > 1 {
            self.k = self.j;
        }
    }

    fn step5(&mut self) {
        self.j = self.k;
        if self.at(self.k) == b'e' {
            let a = self.m();
            if a > 1 || (a == 1 && !self.cvc(self.k - 1)) {
                self.k -= 1;
            }
        }
        if self.at(self.k) == b'l' && self.double_c(self.k) && self.m() > 1 {
            self.k -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stemmed(w: &str) -> String {
        let mut b = w.as_bytes().to_vec();
        stem(&mut b);
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn porter_examples() {
        // Examples from Porter's paper and his published vocabulary/output lists.
        let cases = [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "ti"),
            ("caress", "caress"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("bled", "bled"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("troubled", "troubl"),
            ("sized", "size"),
            ("hopping", "hop"),
            ("tanned", "tan"),
            ("falling", "fall"),
            ("hissing", "hiss"),
            ("fizzed", "fizz"),
            ("failing", "fail"),
            ("filing", "file"),
            ("happy", "happi"),
            ("sky", "sky"),
            ("relational", "relat"),
            ("conditional", "condit"),
            ("rational", "ration"),
            ("valenci", "valenc"),
            ("digitizer", "digit"),
            ("conformabli", "conform"),
            ("radicalli", "radic"),
            ("differentli", "differ"),
            ("vileli", "vile"),
            ("analogousli", "analog"),
            ("vietnamization", "vietnam"),
            ("predication", "predic"),
            ("operator", "oper"),
            ("feudalism", "feudal"),
            ("decisiveness", "decis"),
            ("hopefulness", "hope"),
            ("callousness", "callous"),
            ("formaliti", "formal"),
            ("sensitiviti", "sensit"),
            ("sensibiliti", "sensibl"),
            ("triplicate", "triplic"),
            ("formative", "form"),
            ("formalize", "formal"),
            ("electriciti", "electr"),
            ("electrical", "electr"),
            ("hopeful", "hope"),
            ("goodness", "good"),
            ("revival", "reviv"),
            ("allowance", "allow"),
            ("inference", "infer"),
            ("airliner", "airlin"),
            ("gyroscopic", "gyroscop"),
            ("adjustable", "adjust"),
            ("defensible", "defens"),
            ("irritant", "irrit"),
            ("replacement", "replac"),
            ("adjustment", "adjust"),
            ("dependent", "depend"),
            ("adoption", "adopt"),
            ("homologou", "homolog"),
            ("communism", "commun"),
            ("activate", "activ"),
            ("angulariti", "angular"),
            ("homologous", "homolog"),
            ("effective", "effect"),
            ("bowdlerize", "bowdler"),
            ("probate", "probat"),
            ("rate", "rate"),
            ("cease", "ceas"),
            ("controll", "control"),
            ("roll", "roll"),
            ("generalizations", "gener"),
            ("refunds", "refund"),
            ("refunded", "refund"),
            ("refunding", "refund"),
            ("policies", "polici"),
            ("policy", "polici"),
            ("go", "go"),
        ];
        for (word, want) in cases {
            assert_eq!(stemmed(word), want, "stem of {word}");
        }
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| w.len() <= 6));
    }

    #[test]
    fn terms_split_lowercase_and_stem() {
        let mut got = Vec::new();
        for_each_term(
            "How do I get REFUNDS for payments.refund_worker? Customer's 502",
            |t| got.push(t.to_string()),
        );
        assert_eq!(
            got,
            ["refund", "payment", "refund", "worker", "custom", "502"]
        );
        assert_eq!(query_terms("the refund, the Refunds"), ["refund"]);
        assert_eq!(query_terms("Größe café"), ["größe", "café"]);
        assert!(query_terms("what is the").is_empty());
    }

    #[test]
    fn bm25_prefers_rare_terms_and_short_documents() {
        let terms = query_terms("refund damaged");
        let docs = [
            "Shipping takes three days.",
            "A refund for damaged items is issued within five days.",
            "Refund requests go to billing. Refund status is emailed. Refund forms are online.",
            "Damaged items must be photographed.",
        ];
        let s = bm25(&terms, docs.iter().copied());
        assert_eq!(s[0], 0.0);
        assert!(s[1] > s[2] && s[1] > s[3], "{s:?}");
        assert!(bm25(&terms, std::iter::empty()).is_empty());
    }
}
