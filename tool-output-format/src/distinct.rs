//! Finding a name among the distinct names of a list that only grows at its end: by a search
//! while the list is short, through a set of its names once it is long. A list of many names
//! (the keys of a hostile result) then costs no search of the whole list per name, and a
//! short one costs no hashing.

use std::collections::HashSet;

/// The names of a growing list, indexed once the list is long.
#[derive(Debug, Default, Clone)]
pub(crate) struct NameIndex {
    /// The names of the list's first `set.len()` items (empty while the list is short).
    set: HashSet<String>,
}

impl NameIndex {
    /// Whether an item of `list` is named `name`. Between calls `list` only grows at its end,
    /// and its items' names are distinct. A list of at most `few` items is searched.
    #[inline]
    pub fn contains<T>(
        &mut self,
        list: &[T],
        name_of: impl Fn(&T) -> &str,
        few: usize,
        name: &str,
    ) -> bool {
        if list.len() <= few {
            return list.iter().any(|item| name_of(item) == name);
        }
        let indexed = self.set.len();
        self.set
            .extend(list[indexed..].iter().map(|item| name_of(item).to_owned()));
        self.set.contains(name)
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
            assert!(!index.contains(&list, String::as_str, 8, &name));
            list.push(name);
            assert!(index.contains(&list, String::as_str, 8, "n0"));
            assert!(index.contains(&list, String::as_str, 8, &format!("n{i}")));
        }
        assert_eq!(index.set.len(), 40);
    }
}
