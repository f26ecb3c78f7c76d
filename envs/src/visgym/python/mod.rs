//! The parts of Python that VisGym's action handling exposes to a model: every action
//! string goes through `ast.literal_eval`, and feedback quotes Python's `str`/`repr`
//! of the result or the exact exception text. Reproduced for CPython 3.11.

pub mod ast;
mod fast_literal;
pub mod format;
pub mod literal;
mod numbers;
pub mod parser;
pub mod set_order;
mod strings;
pub mod tokenizer;
mod unicode_tables;
pub mod value;

pub use format::{py_repr, py_str, py_str_checked};
pub use literal::{literal_eval, literal_value, PyException};
pub use value::{PyInt, PyValue};
