//! IO around the `envs` crate for native tools: files, PNG encoding, JSON lines.
