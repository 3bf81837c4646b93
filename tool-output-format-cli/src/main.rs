//! `tof`: render a JSON tool result as markdown a model reads well.
//!
//! ```text
//! tof results.json
//! curl -s https://api.example.com/orders | tof --tool list_orders --layout compact
//! tof --max-rows 20 --report events.ndjson
//! gh api repos/OWNER/REPO | tof --agent --tool get_repo   # the agent preset
//! tof --json --max-rows 20 events.ndjson      # the structured form, for MCP structuredContent
//! ```
//!
//! Input forms and memory: [`input`]. Exit codes: [`error`] (0 ok, 1 I/O, 2 bad input,
//! 64 usage). Every call into the library: [`render`].

mod cli;
mod error;
mod input;
mod notation;
#[cfg(feature = "proxy")]
mod outline;
#[cfg(feature = "proxy")]
mod proxy;
mod render;
mod shape;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use crate::cli::Cli;
use crate::error::{EXIT_OK, EXIT_USAGE, Error};
use crate::input::{Input, Progress, Source};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output with 0; usage errors to standard error.
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => EXIT_OK,
                _ => EXIT_USAGE,
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: &Cli) -> Result<(), Error> {
    #[cfg(feature = "proxy")]
    if let Some(cli::Sub::Proxy(args)) = &cli.command {
        return proxy::run(args);
    }
    let shape = match &cli.shape {
        Some(path) => Some(shape::load(path)?),
        None => None,
    };
    let form = if cli.json {
        render::Form::Json
    } else {
        render::Form::Text
    };
    // The option flags as the library read them: unset ones keep the formatter's (the agent
    // preset's compact layout unless --layout is given).
    let opts = render::Options {
        tool: cli.tool.clone().unwrap_or_default(),
        agent: cli.agent,
        shape,
        options: cli.options.0.clone(),
    };

    let (reader, src): (Box<dyn BufRead>, Source) = match &cli.file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let file = File::open(path).map_err(|error| Error::Io {
                context: format!("opening {name}"),
                error,
            })?;
            (
                Box::new(BufReader::with_capacity(1 << 16, file)),
                Source {
                    name,
                    path: Some(path.clone()),
                },
            )
        }
        _ => (
            Box::new(BufReader::with_capacity(1 << 16, io::stdin().lock())),
            Source {
                name: "<stdin>".into(),
                path: None,
            },
        ),
    };
    let input = input::read(
        reader,
        &src,
        opts.keep(),
        cli.ndjson,
        opts.streams_arrays(),
        &mut Progress::on_terminal(),
    )?;
    let out = match input {
        Input::Document(v) => render::document(&opts, &v, form, cli.report),
        Input::Records(r) => render::records(&opts, &r, form, cli.report),
    };
    write_stdout(&out.text)?;
    if let Some(report) = out.report {
        eprintln!("{report}");
    }
    Ok(())
}

/// The text and a final newline on standard output. A closed pipe (`tof big.json | head`)
/// is not an error: the reader has what it wanted.
fn write_stdout(text: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out
        .write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
    {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|error| Error::Io {
            context: "writing standard output".into(),
            error,
        }),
    }
}
