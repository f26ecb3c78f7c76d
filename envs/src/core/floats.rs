//! A float32 observation vector held inline when short: Classic Control's two to six
//! values, so a step allocates nothing (`docs/environments.md`, "Reference
//! throughput"). It reads as a slice, serializes as a sequence and prints as a
//! `Vec<f32>` does.

use std::fmt;
use std::ops::Deref;

use serde::{Serialize, Serializer};

/// Values held without an allocation.
const INLINE: usize = 8;

#[derive(Clone)]
pub struct Floats(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, values: [f32; INLINE] },
    Heap(Vec<f32>),
}

impl Floats {
    pub fn from_slice(values: &[f32]) -> Self {
        if values.len() <= INLINE {
            let mut inline = [0.0; INLINE];
            inline[..values.len()].copy_from_slice(values);
            Self(Repr::Inline {
                len: values.len() as u8,
                values: inline,
            })
        } else {
            Self(Repr::Heap(values.to_vec()))
        }
    }

    fn push(&mut self, v: f32) {
        match &mut self.0 {
            Repr::Inline { len, values } if usize::from(*len) < INLINE => {
                values[usize::from(*len)] = v;
                *len += 1;
            }
            Repr::Inline { values, .. } => {
                let mut heap = values.to_vec();
                heap.push(v);
                self.0 = Repr::Heap(heap);
            }
            Repr::Heap(heap) => heap.push(v),
        }
    }
}

impl Deref for Floats {
    type Target = [f32];

    fn deref(&self) -> &[f32] {
        match &self.0 {
            Repr::Inline { len, values } => &values[..usize::from(*len)],
            Repr::Heap(v) => v,
        }
    }
}

impl From<Vec<f32>> for Floats {
    fn from(v: Vec<f32>) -> Self {
        if v.len() <= INLINE {
            Self::from_slice(&v)
        } else {
            Self(Repr::Heap(v))
        }
    }
}

impl FromIterator<f32> for Floats {
    fn from_iter<I: IntoIterator<Item = f32>>(iter: I) -> Self {
        let mut out = Self::from_slice(&[]);
        iter.into_iter().for_each(|v| out.push(v));
        out
    }
}

impl PartialEq for Floats {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Floats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl Serialize for Floats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_vectors_read_print_and_serialize_as_vec_does() {
        for n in [0, 1, 4, 8, 9, 100] {
            let v: Vec<f32> = (0..n).map(|i| i as f32 * 0.1 - 0.25).collect();
            let collected: Floats = v.iter().copied().collect();
            for f in [collected, Floats::from(v.clone()), Floats::from_slice(&v)] {
                assert_eq!(&*f, v.as_slice());
                assert_eq!(format!("{f:?}"), format!("{v:?}"));
                assert_eq!(
                    serde_json::to_string(&f).unwrap(),
                    serde_json::to_string(&v).unwrap()
                );
                assert_eq!(f, Floats::from(v.clone()));
            }
        }
        assert_ne!(Floats::from_slice(&[1.0]), Floats::from_slice(&[1.0, 0.0]));
    }
}
