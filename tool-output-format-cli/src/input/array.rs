//! A top-level JSON array read element by element.
//!
//! The array is parsed straight from the reader: the first `keep` elements become values
//! (the rows the cap shows), later ones are only probed for new keys (see
//! [`Collector`]), so memory is the kept rows whatever the size of the array, and an array
//! on one line is never held as text.
//!
//! Only a plain table of objects is read this way, and only without a shape (the caller
//! decides; a shape decides its columns over every row, see [`super::read`]). Whenever the
//! result could differ from the whole array's, the input is read again and rendered as
//! today, as one document: an element that is not an object (a list is not a table), objects
//! without a key between them, more columns than a table has, anything after the array
//! (records, whose message names the array) and any syntax error (the whole-input reader
//! names its line and column). Reading again means opening the file again; standard input
//! is copied to a temporary file while it is read (in memory when no file can be made), so
//! it can be read again too.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, Write};

use serde::Deserialize as _;
use serde::de::{DeserializeSeed, Deserializer, Error as _, SeqAccess, Visitor};
use serde_json::Value;

use super::{Collector, Input, Source};
use crate::error::Error;

/// Whether the first non-blank byte of what `r` has buffered opens an array. Nothing is
/// consumed. `false` when only white space is buffered (the line by line reader decides).
pub(super) fn starts_an_array(r: &mut impl BufRead, src: &Source) -> Result<bool, Error> {
    let buf = r.fill_buf().map_err(|error| io_error(src, error))?;
    Ok(buf.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'['))
}

/// Read the array that `r` starts with (see the [module docs](self)), keeping `keep`
/// records; `again` reads the input from its start the way it is read without streaming.
pub(super) fn read(
    r: impl BufRead,
    src: &Source,
    keep: usize,
    again: impl FnOnce(Box<dyn BufRead + '_>) -> Result<Input, Error>,
) -> Result<Input, Error> {
    let spill = match &src.path {
        Some(_) => None,
        None => Some(Spill::new()),
    };
    let mut tee = Tee { inner: r, spill };
    let mut c = Collector::new(keep);
    let streamed = {
        // `Bytes` over a `BufReader` takes one byte without a call per byte.
        let mut de =
            serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, &mut tee));
        Elements(&mut c)
            .deserialize(&mut de)
            .and_then(|()| de.end())
            .is_ok()
    };
    let keys = c.keys();
    if streamed && c.rows.total() <= keep {
        return Ok(Input::Document(Value::Array(c.finish().kept().to_vec())));
    }
    // No key at all: a list of empty objects. More keys than a table has columns (the
    // collector notes at most one more): a list too.
    if streamed && keys > 0 && keys <= tool_output_format::MAX_COLUMNS {
        return Ok(Input::Records(c.finish()));
    }
    drop(c);
    match (&src.path, tee.spill) {
        (Some(path), _) => {
            let file = File::open(path).map_err(|error| Error::Io {
                context: format!("opening {}", src.name),
                error,
            })?;
            again(Box::new(BufReader::with_capacity(1 << 16, file)))
        }
        (None, Some(spill)) => {
            let copy = spill.rewind().map_err(|error| io_error(src, error))?;
            again(Box::new(BufReader::with_capacity(
                1 << 16,
                copy.chain(tee.inner),
            )))
        }
        (None, None) => unreachable!("standard input is always copied"),
    }
}

fn io_error(src: &Source, error: io::Error) -> Error {
    Error::Io {
        context: format!("reading {}", src.name),
        error,
    }
}

/// The top-level array: each element to the collector. Fails (so the input is read again,
/// see the [module docs](self)) on anything but an array of objects.
struct Elements<'a>(&'a mut Collector);

impl<'de> DeserializeSeed<'de> for Elements<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Elements<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Element(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

/// One element: a value while the collector keeps records, else probed for its keys.
struct Element<'a>(&'a mut Collector);

impl<'de> DeserializeSeed<'de> for Element<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let c = self.0;
        if c.is_full() {
            // A value that is not an object fails the probe.
            return c.probe(d);
        }
        match Value::deserialize(d)? {
            v @ Value::Object(_) => {
                c.keep_object(v);
                Ok(())
            }
            _ => Err(D::Error::custom("not an object")),
        }
    }
}

/// Reads `inner` and copies what it read to `spill`, when there is one.
struct Tee<R> {
    inner: R,
    spill: Option<Spill>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(spill) = &mut self.spill {
            spill.write(&buf[..n]);
        }
        Ok(n)
    }
}

/// A copy of standard input as it is read: an unnamed temporary file, or memory when no
/// file can be made or written.
enum Spill {
    File(TempFile),
    Memory(Vec<u8>),
}

impl Spill {
    fn new() -> Spill {
        TempFile::new().map_or_else(|_| Spill::Memory(Vec::new()), Spill::File)
    }

    fn write(&mut self, bytes: &[u8]) {
        if let Spill::File(t) = self
            && t.file.write_all(bytes).is_err()
        {
            // The disk is full (or the like): the copy so far goes to memory.
            let mut copied = Vec::new();
            let read_back = t
                .file
                .rewind()
                .and_then(|()| t.file.read_to_end(&mut copied));
            if read_back.is_err() {
                copied.clear();
            }
            *self = Spill::Memory(copied);
        }
        if let Spill::Memory(m) = self {
            m.extend_from_slice(bytes);
        }
    }

    /// The copy, from its start.
    fn rewind(self) -> io::Result<Box<dyn Read>> {
        match self {
            Spill::File(mut t) => {
                t.file.rewind()?;
                Ok(Box::new(BufReader::with_capacity(1 << 16, t)))
            }
            Spill::Memory(m) => Ok(Box::new(io::Cursor::new(m))),
        }
    }
}

/// A file in the temporary directory, removed at once where the system allows (it lives
/// until closed), else when dropped.
struct TempFile {
    file: File,
    path: std::path::PathBuf,
}

impl TempFile {
    fn new() -> io::Result<TempFile> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!("tof-{}-{nanos}.json", std::process::id());
        let path = std::env::temp_dir().join(name);
        let file = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        let _ = std::fs::remove_file(&path);
        Ok(TempFile { file, path })
    }
}

impl Read for TempFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.file.read(buf)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Already gone but where an open file cannot be removed (Windows).
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use serde_json::{Value, json};
    use tool_output_format::{Detail, Layout, Strategy, ToolOptions};

    use super::super::{Input, Progress, Source, read};
    use crate::render::{self, Form, Options};

    /// Arrays whose output the streamed path must not change: late keys after the cut,
    /// empty values in late columns, elements that are not objects (first, after the cut,
    /// nested arrays), an empty array, empty objects, arrays in cells.
    fn arrays() -> Vec<(&'static str, Value)> {
        let rows = |n: usize| -> Vec<Value> {
            (0..n)
                .map(|i| json!({"id": i, "name": format!("n{i}"), "tags": ["a", i]}))
                .collect()
        };
        let mut late = rows(9);
        late[5] = json!({"id": 5, "late": {"x": 1}, "name": "five"});
        late[8] = json!({"later": [1, [2, 3]], "id": 8});
        let mut empty_late = rows(9);
        empty_late[4]["note"] = json!("");
        empty_late[6]["note"] = json!(null);
        empty_late[7]["gone"] = json!({});
        empty_late[8]["note"] = json!("filled");
        let mut scalar_after = rows(9);
        scalar_after.push(json!(7));
        let mut array_after = rows(9);
        array_after.insert(6, json!([{"id": 1}]));
        let mut empty_then_keys = vec![json!({}); 6];
        empty_then_keys.push(json!({"k": 1}));
        vec![
            ("plain", Value::Array(rows(9))),
            ("late keys", Value::Array(late)),
            ("empty late values", Value::Array(empty_late)),
            ("scalar after the cut", Value::Array(scalar_after)),
            ("array after the cut", Value::Array(array_after)),
            (
                "scalar first",
                json!([1, {"a": 1}, {"a": 2}, "x", null, {"a": 3}]),
            ),
            ("scalars", json!([1, 2, 3, 4, 5, 6, 7])),
            ("nested arrays", json!([[1, 2], [3], [], [[4]], [5], [6]])),
            ("empty", json!([])),
            ("empty objects", Value::Array(vec![json!({}); 8])),
            ("empty, then a key", Value::Array(empty_then_keys)),
            (
                "long strings",
                Value::Array(
                    (0..7)
                        .map(|i| json!({"id": i, "body": "line\n".repeat(12 + i)}))
                        .collect(),
                ),
            ),
        ]
    }

    /// Option sets of the matrix: the cap, layouts, budgets, the agent preset, a shape,
    /// full detail, long values.
    fn option_sets() -> Vec<Options> {
        let cap = |n, o: ToolOptions| Options {
            options: o.max_rows(n),
            ..Options::default()
        };
        let shape = crate::shape::parse(
            "s.json",
            br#"{"drop": ["tags"], "drop_empty": true, "flatten": true}"#,
        )
        .unwrap();
        let new = ToolOptions::new;
        let agent = |o: Options| Options { agent: true, ..o };
        vec![
            Options::default(),
            cap(0, new()),
            cap(1, new()),
            cap(3, new()),
            Options {
                options: new().max_lines(2).layout(Layout::Compact),
                ..Options::default()
            },
            cap(2, new().layout(Layout::Csv)),
            cap(4, new().max_chars(160)),
            cap(4, new().max_tokens(40)),
            cap(
                3,
                new()
                    .max_cell_chars(4)
                    .strategy(Strategy::HeadTail)
                    .max_lines(3),
            ),
            Options {
                tool: "list".into(),
                ..cap(3, new().detail(Detail::Full))
            },
            agent(cap(3, new().layout(Layout::Compact))),
            agent(cap(3, new().detail(Detail::Full))),
            Options {
                shape: Some(shape),
                ..cap(3, new())
            },
        ]
    }

    fn through_reader(text: &[u8], src: &Source, opts: &Options) -> Input {
        read(
            text,
            src,
            opts.keep(),
            false,
            opts.streams_arrays(),
            &mut Progress::off(),
        )
        .unwrap()
    }

    fn rendered(input: Input, opts: &Options, form: Form, report: bool) -> render::Rendered {
        match input {
            Input::Document(v) => render::document(opts, &v, form, report),
            Input::Records(r) => render::records(opts, &r, form, report),
        }
    }

    /// A file that is removed when dropped.
    struct TempPath(PathBuf);

    impl Drop for TempPath {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// The streamed path (standard input, and a file that can be opened again) gives the
    /// bytes `render::document` gives for the whole array, for every option set, text and
    /// structured JSON, with and without the report, compact and pretty-printed.
    #[test]
    fn a_streamed_array_renders_like_the_whole_array() {
        let mut streamed = 0;
        for (name, whole) in arrays() {
            let texts = [
                serde_json::to_vec(&whole).unwrap(),
                serde_json::to_vec_pretty(&whole).unwrap(),
            ];
            for (t, text) in texts.iter().enumerate() {
                let file = TempPath(
                    std::env::temp_dir()
                        .join(format!("tof-array-{}-{name}-{t}.json", std::process::id())),
                );
                std::fs::write(&file.0, text).unwrap();
                let sources = [
                    Source {
                        name: "<stdin>".into(),
                        path: None,
                    },
                    Source {
                        name: "a.json".into(),
                        path: Some(file.0.clone()),
                    },
                ];
                for opts in option_sets() {
                    for (form, report) in
                        [(Form::Text, false), (Form::Text, true), (Form::Json, false)]
                    {
                        let want = render::document(&opts, &whole, form, report);
                        for src in &sources {
                            let input = through_reader(text, src, &opts);
                            streamed += usize::from(matches!(input, Input::Records(_)));
                            let got = rendered(input, &opts, form, report);
                            assert_eq!(got, want, "{name} ({t}) from {} {opts:?}", src.name);
                        }
                    }
                }
            }
        }
        // The matrix did go through the streamed path (not only the fallbacks).
        assert!(streamed > 100, "{streamed}");
    }

    /// What the reader gives for an array: records when rows were cut (and no shape is in
    /// effect), else the whole document.
    #[test]
    fn arrays_are_records_only_when_cut_and_tables() {
        let src = Source {
            name: "<stdin>".into(),
            path: None,
        };
        let read_as = |text: &str, keep: usize, stream: bool| {
            read(
                text.as_bytes(),
                &src,
                keep,
                false,
                stream,
                &mut Progress::off(),
            )
            .unwrap()
        };
        let text = "\n [{\"a\":1},\n{\"a\":2},{\"b\":\"\"},{\"c\":3}]\n\n";
        match read_as(text, 2, true) {
            Input::Records(r) => {
                assert_eq!(r.kept(), [json!({"a": 1}), json!({"a": 2})]);
                assert_eq!(
                    (r.total(), r.late_keys()),
                    (4, &["b".to_owned(), "c".to_owned()][..])
                );
            }
            Input::Document(v) => panic!("a document: {v}"),
        }
        for (text, keep, stream) in [
            (text, 4, true),
            (text, 2, false),
            ("[{}, {}, {}]", 1, true),
            ("[{\"a\":1}, {\"a\":2}, 3]", 1, true),
            ("[]", 0, true),
        ] {
            let want: Value = serde_json::from_str(text).unwrap();
            assert!(
                matches!(read_as(text, keep, stream), Input::Document(ref v) if *v == want),
                "{text}"
            );
        }
    }

    /// Errors in an array, or after it, read as they did before streaming: the same message
    /// at the same line and column, from standard input and from a file.
    #[test]
    fn errors_in_arrays_are_the_whole_input_errors() {
        let file = TempPath(
            std::env::temp_dir().join(format!("tof-array-errors-{}.json", std::process::id())),
        );
        for text in [
            "[{\"a\":1},{\"a\":2},{\"a\" 3}]",
            "[{\"a\":1},{\"a\":2},{\"a\":3}",
            "[{\"a\":1},{\"a\":2},{\"a\":3}]]",
            "[{\"a\":1},{\"a\":2},{\"a\":3},]",
            "[{\"a\":1},{\"a\":2} {\"a\":3}]",
            "[{\"a\":1},\n{\"a\":2},\n{\"a\": \"b\n\"}]",
            "\n\n[{\"a\":1},{\"a\":2},{\"a\":3}]\n{\"a\":4}\n",
            "[{\"a\":1},{\"a\":2},{\"a\":3}] x",
            "[{\"a\":1},{\"a\":2},{\"a\":3}] {\"a\":",
            "[\n  {\"a\": 1},\n  {\"a\": 2},\n  {\"a\": tru}\n]\n",
            "[{\"a\":1},{\"a\":2},{\"a\":3}]\n[{\"a\":4}]",
        ] {
            std::fs::write(&file.0, text).unwrap();
            let whole = |stream: bool, path: Option<PathBuf>| {
                let src = Source {
                    name: "a.json".into(),
                    path,
                };
                read(
                    text.as_bytes(),
                    &src,
                    1,
                    false,
                    stream,
                    &mut Progress::off(),
                )
                .unwrap_err()
                .to_string()
            };
            let want = whole(false, None);
            assert_eq!(whole(true, None), want, "{text:?}");
            assert_eq!(whole(true, Some(file.0.clone())), want, "{text:?}");
        }
    }
}
