//! The three order systems' shapes (legacy, v2, and v3 as a shape file), the same source the
//! runtime's unit tests include (`tool-output-format/tests/data/order_shapes.rs`).

use tool_output_format::{Convert, Shape};

include!("../../tool-output-format/tests/data/order_shapes.rs");
