//! A top-level JSON array read element by element (issue 32).
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

use super::{Collector, Input, MAX_TRACKED_KEYS, Source};
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
        let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(
            1 << 16,
            &mut tee,
        ));
        Elements(&mut c)
            .deserialize(&mut de)
            .and_then(|()| de.end())
            .is_ok()
    };
    let rows = &c.records;
    let keys = c.keys.len();
    if streamed && rows.total <= keep {
        return Ok(Input::Document(Value::Array(c.finish().rows)));
    }
    if streamed && keys > 0 && keys < MAX_TRACKED_KEYS {
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
            again(Box::new(BufReader::with_capacity(1 << 16, copy.chain(tee.inner))))
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
