//! Finding a name among the distinct names of a list that only grows at its end: by a search
//! while the list is short, through a map of its names' hashes once it is long. A list of many
//! names (the keys of a hostile result) then costs no search of the whole list per name, and a
//! short one costs no hashing.

use std::hash::BuildHasher;

use foldhash::HashMap;

/// The names of a growing list, indexed once the list is long.
#[derive(Debug, Default, Clone)]
pub(crate) struct NameIndex {
    /// Once the list is long: the hash of each of its first `indexed` items' names, and the
    /// first item with that hash (names are hashed with a random seed; a name whose hash
    /// is another name's is searched for in the whole list).
    hashes: Option<HashMap<u64, usize>>,
    indexed: usize,
    /// While the list is short: bit [`mark`]`(name)` is set for the name of each of its
    /// first `marked` items, so a name whose bit is clear is new without a search.
    marks: [u64; 4],
    marked: usize,
}

/// A name's bit in [`NameIndex::marks`]: from its length and two of its bytes (names that
/// differ mostly differ there; equal names always share it).
#[inline]
fn mark(name: &[u8]) -> u8 {
    let n = name.len();
    let (first, last) = match name {
        [] => (0, 0),
        [first, .., last] => (*first, *last),
        [one] => (*one, *one),
    };
    #[allow(clippy::cast_possible_truncation)] // a bit index: only the low byte counts
    let len = n as u8;
    len.wrapping_mul(37) ^ last.wrapping_mul(7) ^ first.rotate_left(3)
}

impl NameIndex {
    /// Whether an item of `list` is named `name`. Between calls `list` only grows at its end,
    /// and its items' names are distinct. A list of at most `few` items is searched.
    /// Names are compared as bytes (a name read from a buffer needs no check of its
    /// character boundaries); a short list is searched only when a name's mark is set.
    #[inline]
    pub fn contains<'l, T>(
        &mut self,
        list: &'l [T],
        name_of: impl Fn(&'l T) -> &'l [u8],
        few: usize,
        name: &[u8],
    ) -> bool {
        if list.len() <= few {
            for item in &list[self.marked..] {
                let b = mark(name_of(item));
                self.marks[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            self.marked = list.len();
            let b = mark(name);
            return self.marks[usize::from(b >> 6)] & (1 << (b & 63)) != 0
                && list.iter().any(|item| name_of(item) == name);
        }
        // Made only now: a short list costs no hasher (an object's renamed names are few).
        let hashes = self.hashes.get_or_insert_with(HashMap::default);
        for (i, item) in list.iter().enumerate().skip(self.indexed) {
            let h = hashes.hasher().hash_one(name_of(item));
            hashes.entry(h).or_insert(i);
        }
        self.indexed = list.len();
        match hashes.get(&hashes.hasher().hash_one(name)) {
            None => false,
            Some(&i) if name_of(&list[i]) == name => true,
            Some(_) => list.iter().any(|item| name_of(item) == name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_list_is_searched_and_a_long_one_indexed_as_it_grows() {
        let mut index = NameIndex::default();
        let mut list: Vec<String> = Vec::new();
        for i in 0..40 {
            let name = format!("n{i}");
            assert!(!index.contains(&list, String::as_bytes, 8, name.as_bytes()));
            list.push(name);
            assert!(index.contains(&list, String::as_bytes, 8, b"n0"));
            assert!(index.contains(&list, String::as_bytes, 8, format!("n{i}").as_bytes()));
        }
        assert_eq!(index.indexed, 40);
    }

    #[test]
    fn a_name_whose_hash_is_another_names_is_searched_for() {
        let list: Vec<String> = (0..10).map(|i| format!("k{i}")).collect();
        let mut index = NameIndex::default();
        assert!(index.contains(&list, String::as_bytes, 2, b"k3"));
        // Forge a collision: `new` hashes to the slot of `k3`.
        let hashes = index.hashes.as_mut().unwrap();
        let forged = hashes.hasher().hash_one(b"new".as_slice());
        hashes.insert(forged, 3);
        assert!(!index.contains(&list, String::as_bytes, 2, b"new"));
        let mut more = list.clone();
        more.push("new".to_owned());
        assert!(index.contains(&more, String::as_bytes, 2, b"new"));
        // The lookup of `new` met `k3`'s entry, and found `new` by the search.
        let hashes = index.hashes.as_ref().unwrap();
        assert_eq!(hashes[&hashes.hasher().hash_one("new".as_bytes())], 3);
        assert!(index.contains(&more, String::as_bytes, 2, b"k9"));
    }

    #[test]
    fn a_short_list_finds_every_name_it_holds_whatever_the_marks() {
        // 300 names (many sharing a mark: same length, same ends), each offered three times
        // in a scrambled order: found exactly when an earlier offer added it.
        let names: Vec<String> = (0..300)
            .map(|i| format!("a{}z", i % 100 + i / 100 * 7))
            .collect();
        let mut index = NameIndex::default();
        let mut list: Vec<String> = Vec::new();
        for k in 0..900 {
            let name = &names[(k * 7919) % names.len()];
            let held = list.contains(name);
            assert_eq!(
                index.contains(&list, String::as_bytes, 1000, name.as_bytes()),
                held
            );
            if !held {
                list.push(name.clone());
            }
        }
        assert!(index.hashes.is_none() && index.marked == list.len());
        assert_eq!(mark(b""), mark(b""));
    }
}
