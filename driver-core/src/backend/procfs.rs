//! Reading a local browser's processes from `/proc` (Linux): which
//! processes a browser is, and how much memory each holds. Elsewhere, or
//! where `/proc` cannot be read, every reading is empty and memory is not
//! reported.

use std::collections::HashMap;

/// A process's kind, from the `--type=` flag Chrome gives its children:
/// `renderer`, `gpu-process`, `utility`, `zygote`; the browser has none.
pub fn kind(pid: u32) -> Option<String> {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    // Chrome's children may rewrite their command line as one string.
    Some(
        String::from_utf8_lossy(&cmdline)
            .split(['\0', ' '])
            .find_map(|arg| arg.strip_prefix("--type=").map(str::to_owned))
            .unwrap_or_else(|| "browser".to_owned()),
    )
}

/// `root` and every process under it.
pub fn tree(root: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(parent) = parent_of(pid) {
            children.entry(parent).or_default().push(pid);
        }
    }
    let mut found = vec![root];
    let mut next = 0;
    while let Some(pid) = found.get(next).copied() {
        next += 1;
        if let Some(kids) = children.get(&pid) {
            found.extend(kids);
        }
    }
    found.retain(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
    found
}

/// The parent of a process, from `/proc/PID/stat` (the field after the
/// command, which may itself hold spaces and parentheses).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// A process's proportional set size in KiB (shared pages divided among
/// the processes sharing them), from `/proc/PID/smaps_rollup`.
pub fn pss_kib(pid: u32) -> Option<u64> {
    kib_field(&format!("/proc/{pid}/smaps_rollup"), "Pss:")
}

/// A process's resident set in KiB, from `/proc/PID/status`: cheaper than
/// [`pss_kib`] and larger (it counts shared pages whole).
pub fn rss_kib(pid: u32) -> Option<u64> {
    kib_field(&format!("/proc/{pid}/status"), "VmRSS:")
}

/// The number on the line of `file` that starts with `prefix` (`Pss:   123 kB`).
fn kib_field(file: &str, prefix: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    text.lines().find_map(|line| {
        line.strip_prefix(prefix)?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_its_own_tree_and_has_memory() {
        let me = std::process::id();
        assert!(tree(me).contains(&me));
        assert!(pss_kib(me).is_some_and(|kib| kib > 0));
        assert!(rss_kib(me).is_some_and(|kib| kib > 0));
        assert_eq!(kind(me).as_deref(), Some("browser"));
    }
}
