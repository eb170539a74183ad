//! Where the binary's logs go: stderr (stdout is MCP's), each line with
//! every secret hidden as in an answer, whatever the log level.

use std::io::Write;
use std::sync::Arc;

/// A writer of one log event to stderr, scrubbed of secrets when it is
/// flushed or dropped (the log formatter writes an event whole).
pub struct ScrubbedStderr {
    scrubber: Arc<tools::Scrubber>,
    buffer: Vec<u8>,
}

impl ScrubbedStderr {
    pub fn new(scrubber: Arc<tools::Scrubber>) -> Self {
        Self {
            scrubber,
            buffer: Vec::new(),
        }
    }

    fn emit(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let bytes = std::mem::take(&mut self.buffer);
        let mut stderr = std::io::stderr().lock();
        if self.scrubber.is_empty() {
            return stderr.write_all(&bytes);
        }
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        self.scrubber.scrub(&mut text);
        stderr.write_all(text.as_bytes())
    }
}

impl Write for ScrubbedStderr {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.emit()
    }
}

impl Drop for ScrubbedStderr {
    fn drop(&mut self) {
        let _ = self.emit();
    }
}
