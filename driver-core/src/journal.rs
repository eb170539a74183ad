//! [`Journal`]: a bounded log read by position, so a reader that remembers
//! where it stopped sees every entry after that, or learns how many it
//! missed, however long the log has been running.

use std::collections::VecDeque;

/// A log that keeps its newest `capacity` entries and gives every entry a
/// sequence number, counting on past the ones it dropped.
///
/// A reader keeps [`Journal::next_seq`] and later asks for
/// [`Journal::since`] it. Counting entries instead (a length before, a
/// length after) goes wrong once the log is full: the length stays the same
/// while new entries push old ones out.
#[derive(Debug, Clone)]
pub struct Journal<T> {
    entries: VecDeque<T>,
    next: u64,
    capacity: usize,
}

impl<T> Journal<T> {
    /// An empty journal keeping at most `capacity` entries (at least one).
    pub fn new(capacity: usize) -> Self {
        Self {
            entries: VecDeque::new(),
            next: 0,
            capacity: capacity.max(1),
        }
    }

    /// Adds an entry, dropping the oldest if full; returns its number.
    pub fn push(&mut self, entry: T) -> u64 {
        if self.entries.len() == self.capacity {
            self.entries.pop_front();
        }
        self.entries.push_back(entry);
        self.next += 1;
        self.next - 1
    }

    /// The number the next entry will get: where a reader that has seen
    /// everything so far stands.
    pub fn next_seq(&self) -> u64 {
        self.next
    }

    /// The number of the oldest entry still kept.
    fn first_kept(&self) -> u64 {
        self.next - self.entries.len() as u64
    }

    /// The entries numbered `from` and after that are still kept, oldest
    /// first.
    pub fn since(&self, from: u64) -> impl Iterator<Item = &T> {
        let skip = from.saturating_sub(self.first_kept());
        self.entries
            .iter()
            .skip(usize::try_from(skip).unwrap_or(usize::MAX))
    }

    /// How many entries numbered `from` and after were dropped before they
    /// could be read.
    pub fn dropped_since(&self, from: u64) -> u64 {
        self.first_kept().saturating_sub(from)
    }

    /// How many entries are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none are.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry kept, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.entries.iter()
    }
}

impl<T> Default for Journal<T> {
    /// A journal of 1,000 entries.
    fn default() -> Self {
        Self::new(1_000)
    }
}

#[cfg(test)]
mod tests {
    use super::Journal;

    #[test]
    fn a_full_journal_still_shows_what_is_new() {
        let mut journal = Journal::new(500);
        for n in 0..600 {
            journal.push(n);
        }
        let seen = journal.next_seq();
        for n in 600..1200 {
            journal.push(n);
        }
        // A count taken before and after would say nothing happened: 500 and 500.
        assert_eq!(journal.len(), 500);
        let new: Vec<_> = journal.since(seen).copied().collect();
        assert_eq!(new.len(), 500);
        assert_eq!(new.first(), Some(&700));
        assert_eq!(journal.dropped_since(seen), 100);
        assert_eq!(journal.since(journal.next_seq()).count(), 0);
        assert_eq!(journal.dropped_since(journal.next_seq()), 0);
    }
}
