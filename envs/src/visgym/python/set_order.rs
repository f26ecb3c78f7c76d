//! The iteration order of a Python `set` built by adding elements one by one.
//!
//! `str({3, 1, 2})` is `{1, 2, 3}` because CPython walks its hash table in slot order.
//! This reproduces CPython 3.11's open addressing (linear probes, then perturbation)
//! and resizing for elements whose hash is the same in every process (numbers and
//! tuples of numbers). Sets holding strings or `None` print in an order that depends
//! on the process's hash seed; insertion order stands in for it.

use super::value::PyValue;

const MIN_SIZE: usize = 8;
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

struct Table {
    slots: Vec<Option<(i64, PyValue)>>,
    used: usize,
}

impl Table {
    fn new(size: usize) -> Self {
        Table {
            slots: vec![None; size],
            used: 0,
        }
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// `set_add_entry`: returns false when an equal element is already present.
    fn add(&mut self, hash: i64, value: PyValue) -> bool {
        let mask = self.mask();
        let mut i = (hash as u64 as usize) & mask;
        let mut perturb = hash as u64;
        loop {
            let probes = if i + LINEAR_PROBES <= mask {
                LINEAR_PROBES
            } else {
                0
            };
            for j in i..=i + probes {
                match &self.slots[j] {
                    None => {
                        self.slots[j] = Some((hash, value));
                        self.used += 1;
                        // No deletions ever happen here, so fill == used.
                        if self.used * 5 >= mask * 3 {
                            self.resize(self.used * 4);
                        }
                        return true;
                    }
                    Some((h, existing)) if *h == hash && existing.py_eq(&value) => return false,
                    Some(_) => {}
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }

    fn resize(&mut self, min_used: usize) {
        let mut size = MIN_SIZE;
        while size <= min_used {
            size <<= 1;
        }
        let old = std::mem::replace(&mut self.slots, vec![None; size]);
        for (hash, value) in old.into_iter().flatten() {
            self.insert_clean(hash, value);
        }
    }

    fn insert_clean(&mut self, hash: i64, value: PyValue) {
        let mask = self.mask();
        let mut i = (hash as u64 as usize) & mask;
        let mut perturb = hash as u64;
        loop {
            let probes = if i + LINEAR_PROBES <= mask {
                LINEAR_PROBES
            } else {
                0
            };
            for j in i..=i + probes {
                if self.slots[j].is_none() {
                    self.slots[j] = Some((hash, value));
                    return;
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }
}

/// The elements of `set(items)` in the order Python iterates them (duplicates under
/// Python equality dropped, the first one kept).
pub fn set_from(items: Vec<PyValue>) -> Vec<PyValue> {
    let hashes: Option<Vec<i64>> = items.iter().map(PyValue::stable_hash).collect();
    match hashes {
        Some(hashes) => {
            let mut table = Table::new(MIN_SIZE);
            for (value, hash) in items.into_iter().zip(hashes) {
                table.add(hash, value);
            }
            table.slots.into_iter().flatten().map(|(_, v)| v).collect()
        }
        None => {
            let mut out: Vec<PyValue> = Vec::new();
            for value in items {
                if !out.iter().any(|v| v.py_eq(&value)) {
                    out.push(value);
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visgym::python::format::py_repr;

    fn set_repr(items: Vec<PyValue>) -> String {
        py_repr(&PyValue::Set(set_from(items)))
    }

    #[test]
    fn orders_match_cpython() {
        let ints = |v: &[i128]| v.iter().map(|&i| PyValue::int(i)).collect::<Vec<_>>();
        assert_eq!(set_repr(ints(&[3, 1, 2])), "{1, 2, 3}");
        assert_eq!(set_repr(ints(&[-1, -2])), "{-1, -2}");
        assert_eq!(
            set_repr(vec![
                PyValue::int(1),
                PyValue::Float(1.0),
                PyValue::Bool(true)
            ]),
            "{1}"
        );
        // Values printed by CPython 3.11.
        assert_eq!(set_repr(ints(&[100, 8, 16, 3])), "{8, 16, 3, 100}");
        assert_eq!(
            set_repr(ints(&[9, 1, 17, 25, 33, 41])),
            "{33, 1, 9, 41, 17, 25}"
        );
    }
}
