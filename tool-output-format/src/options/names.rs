//! The names of the option values, read back with `FromStr`: one table per type, which the
//! CLI, the Python package and the JSON sink use, so no list of names is kept twice.

use std::fmt;
use std::str::FromStr;

use crate::doc::agent::ErrorKind;
use crate::doc::notice::Strategy;
use crate::focus::RowOrder;
use crate::rules::detail::Detail;
use crate::sink::Layout;

/// A name that is not one of a type's value names, from `str::parse` on [`Layout`],
/// [`Strategy`], [`Detail`], [`RowOrder`] or [`ErrorKind`]. Its message lists the names it
/// takes.
///
/// ```
/// use tool_output_format::{Layout, Strategy};
/// assert_eq!("compact".parse::<Layout>(), Ok(Layout::Compact));
/// assert_eq!("head_tail".parse::<Strategy>(), Ok(Strategy::HeadTail));
/// // An option's name reads a `-` as `_`, as command lines write it.
/// assert_eq!("head-tail".parse::<Strategy>(), Ok(Strategy::HeadTail));
/// let err = "wide".parse::<Layout>().unwrap_err();
/// assert_eq!(err.to_string(), r#"unknown layout "wide"; expected one of "aligned", "compact", "csv""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    what: &'static str,
    name: String,
    expected: Vec<&'static str>,
}

impl UnknownName {
    /// What was named (`"layout"`, `"strategy"`, `"detail"`, `"row order"`, `"error kind"`).
    #[must_use]
    #[cfg(test)]
    pub(crate) fn what(&self) -> &'static str {
        self.what
    }

    /// The names that are accepted.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn expected(&self) -> &[&'static str] {
        &self.expected
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}; expected one of ", self.what, self.name)?;
        for (i, n) in self.expected.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n:?}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownName {}

/// The value of `table` named `name` (exactly, `snake_case`).
fn lookup<T: Copy>(
    what: &'static str,
    table: &[(&'static str, T)],
    name: &str,
) -> Result<T, UnknownName> {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| UnknownName {
            what,
            name: name.to_owned(),
            expected: table.iter().map(|(n, _)| *n).collect(),
        })
}

/// The value of an option's `table` named `name`, where a `-` reads as `_` (`head-tail`, as
/// command lines write it): the one place option names are read, for every face.
fn lookup_option<T: Copy>(
    what: &'static str,
    table: &[(&'static str, T)],
    name: &str,
) -> Result<T, UnknownName> {
    if name.contains('-') {
        return lookup(what, table, &name.replace('-', "_")).map_err(|mut e| {
            name.clone_into(&mut e.name);
            e
        });
    }
    lookup(what, table, name)
}

const LAYOUTS: [(&str, Layout); 3] = [
    ("aligned", Layout::Aligned),
    ("compact", Layout::Compact),
    ("csv", Layout::Csv),
];

const STRATEGIES: [(&str, Strategy); 3] = [
    ("head", Strategy::Head),
    ("tail", Strategy::Tail),
    ("head_tail", Strategy::HeadTail),
];

const DETAILS: [(&str, Detail); 2] = [("summary", Detail::Summary), ("full", Detail::Full)];

const ROW_ORDERS: [(&str, RowOrder); 2] = [("data", RowOrder::Data), ("ranked", RowOrder::Ranked)];

/// The names of a table, in its order (for the constants below).
const fn names<T: Copy, const N: usize>(table: [(&'static str, T); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].0;
        i += 1;
    }
    out
}

impl Layout {
    /// Every layout's name, as `FromStr` reads it: faces read them from the options table
    /// (`OptionKind::OneOf` of `layout`).
    pub(crate) const NAMES: &'static [&'static str] = &names(LAYOUTS);

    /// The name `FromStr` reads (`"aligned"`, `"compact"`, `"csv"`).
    #[cfg(test)]
    pub(crate) fn as_str(self) -> &'static str {
        name_of(&LAYOUTS, self)
    }
}

impl Strategy {
    /// Every strategy's name, as `FromStr` reads it: faces read them from the options table
    /// (`OptionKind::OneOf` of `strategy`).
    pub(crate) const NAMES: &'static [&'static str] = &names(STRATEGIES);

    /// The name `FromStr` reads (`"head"`, `"tail"`, `"head_tail"`).
    ///
    /// ```
    /// assert_eq!(tool_output_format::Strategy::HeadTail.as_str(), "head_tail");
    /// ```
    #[must_use]
    pub fn as_str(self) -> &'static str {
        name_of(&STRATEGIES, self)
    }
}

/// The name of `value` in `table` (every value has one: the tables list them all).
fn name_of<T: Copy + PartialEq>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(n, _)| n)
}

impl FromStr for Layout {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        lookup_option("layout", &LAYOUTS, s)
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        lookup_option("strategy", &STRATEGIES, s)
    }
}

impl Detail {
    /// Every detail level's name, as `FromStr` reads it: faces read them from the options
    /// table (`OptionKind::OneOf` of `detail`).
    pub(crate) const NAMES: &'static [&'static str] = &names(DETAILS);
}

/// `"summary"` or `"full"` ([`Detail::from_arg`] also ignores ASCII case).
///
/// ```
/// use tool_output_format::Detail;
/// assert_eq!("full".parse::<Detail>(), Ok(Detail::Full));
/// assert!("all".parse::<Detail>().is_err());
/// ```
impl FromStr for Detail {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        lookup_option("detail", &DETAILS, s)
    }
}

impl RowOrder {
    /// Every row order's name, as `FromStr` reads it.
    ///
    /// ```
    /// assert_eq!(tool_output_format::RowOrder::NAMES, ["data", "ranked"]);
    /// ```
    pub const NAMES: &'static [&'static str] = &names(ROW_ORDERS);
}

/// `"data"` or `"ranked"`, exactly.
///
/// ```
/// use tool_output_format::RowOrder;
/// assert_eq!("ranked".parse::<RowOrder>(), Ok(RowOrder::Ranked));
/// let err = "best".parse::<RowOrder>().unwrap_err();
/// assert_eq!(err.to_string(), r#"unknown row order "best"; expected one of "data", "ranked""#);
/// ```
impl FromStr for RowOrder {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        lookup("row order", &ROW_ORDERS, s)
    }
}

/// The `snake_case` names of [`ErrorKind::as_str`].
///
/// ```
/// use tool_output_format::ErrorKind;
/// assert_eq!("not_found".parse::<ErrorKind>(), Ok(ErrorKind::NotFound));
/// let err = "missing".parse::<ErrorKind>().unwrap_err();
/// assert!(err.to_string().starts_with(r#"unknown error kind "missing"; expected one of "invalid_input", "not_found""#));
/// ```
impl FromStr for ErrorKind {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let table: Vec<(&'static str, ErrorKind)> =
            ErrorKind::ALL.iter().map(|k| (k.as_str(), *k)).collect();
        lookup("error kind", &table, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_round_trips_through_its_name() {
        for &(n, l) in &LAYOUTS {
            assert_eq!(l.as_str().parse::<Layout>(), Ok(l));
            assert_eq!(l.as_str(), n);
        }
        for &(_, s) in &STRATEGIES {
            assert_eq!(s.as_str().parse::<Strategy>(), Ok(s));
        }
        for &(_, d) in &DETAILS {
            assert_eq!(d.as_str().parse::<Detail>(), Ok(d));
        }
        for &k in ErrorKind::ALL {
            assert_eq!(k.as_str().parse::<ErrorKind>(), Ok(k));
        }
        let e = "Compact".parse::<Layout>().unwrap_err();
        assert_eq!(e.what(), "layout");
        assert_eq!(e.expected(), ["aligned", "compact", "csv"]);
    }
}
