//! numpy `RandomState` and CPython `random.Random` test vectors
//! (`tests/golden/rng/generate.py`) replayed call by call, natively and as wasm. Every
//! result must match exactly: integers, lists, and floats bit for bit.

// Test support code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use envs::rng::{PyRandom, PyRandomError, RandomState, RandomStateError};
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const RANDOM_STATE: &str = include_str!("../golden/rng/random_state.json");
const PY_RANDOM: &str = include_str!("../golden/rng/py_random.json");

/// Equal values, with floats compared by their bits (so -0.0 differs from 0.0).
fn same(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Number(a), Value::Number(e)) if e.is_f64() => {
            a.is_f64() && a.as_f64().map(f64::to_bits) == e.as_f64().map(f64::to_bits)
        }
        (Value::Array(a), Value::Array(e)) => {
            a.len() == e.len() && a.iter().zip(e).all(|(a, e)| same(a, e))
        }
        _ => actual == expected,
    }
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap()
}

fn size(v: &Value) -> usize {
    v.as_u64().unwrap() as usize
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// `[crc32 of the state words, position, cached Gaussian]`, as the generator records it.
fn state_json(key: &[u32; 624], pos: usize, gauss: Option<f64>) -> Value {
    let bytes: Vec<u8> = key.iter().flat_map(|w| w.to_le_bytes()).collect();
    json!([crc32fast::hash(&bytes), pos, gauss])
}

fn float_result<E>(r: Result<f64, E>, exception: fn(&E) -> &'static str) -> Value {
    match r {
        Ok(v) => json!(v),
        Err(e) => json!({ "error": exception(&e) }),
    }
}

fn list_result<T: serde::Serialize, E>(
    r: Result<Vec<T>, E>,
    exception: fn(&E) -> &'static str,
) -> Value {
    match r {
        Ok(v) => json!(v),
        Err(e) => json!({ "error": exception(&e) }),
    }
}

fn int_result<T: Into<i64>, E>(r: Result<T, E>, exception: fn(&E) -> &'static str) -> Value {
    match r {
        Ok(v) => json!(v.into()),
        Err(e) => json!({ "error": exception(&e) }),
    }
}

/// The Python exception numpy raises for each rejected call.
fn numpy_exception(e: &RandomStateError) -> &'static str {
    match e {
        RandomStateError::RangeOverflow => "OverflowError",
        _ => "ValueError",
    }
}

/// The Python exception CPython raises for each rejected call.
fn cpython_exception(e: &PyRandomError) -> &'static str {
    match e {
        PyRandomError::EmptySequence => "IndexError",
        _ => "ValueError",
    }
}

fn random_state_op(rs: &mut RandomState, name: &str, a: &[Value]) -> Value {
    let ex = numpy_exception;
    match name {
        "random_sample" => json!(rs.random_sample()),
        "rand" => json!(rs.rand()),
        "randint" => int_result(rs.randint(int(&a[0]), int(&a[1])), ex),
        "randint_below" => int_result(rs.randint_below(int(&a[0])), ex),
        "randint_i32" => int_result(rs.randint_i32(int(&a[0]), int(&a[1])), ex),
        "randint_size" => list_result(
            (0..size(&a[2]))
                .map(|_| rs.randint(int(&a[0]), int(&a[1])))
                .collect(),
            ex,
        ),
        "choice" => {
            let items: Vec<usize> = (0..size(&a[0])).collect();
            int_result(rs.choice(&items).map(|&i| i as i64), ex)
        }
        "choice_p" => int_result(rs.choice_weighted(&floats(&a[0])).map(|i| i as i64), ex),
        "choice_p_size" => {
            let p = floats(&a[0]);
            list_result(
                (0..size(&a[1])).map(|_| rs.choice_weighted(&p)).collect(),
                ex,
            )
        }
        "choice_noreplace" => list_result(
            rs.choice_without_replacement(size(&a[0]), size(&a[1]), None),
            ex,
        ),
        "choice_noreplace_p" => {
            let p = floats(&a[0]);
            list_result(
                rs.choice_without_replacement(p.len(), size(&a[1]), Some(&p)),
                ex,
            )
        }
        "shuffle" => {
            let mut v: Vec<usize> = (0..size(&a[0])).collect();
            rs.shuffle(&mut v);
            json!(v)
        }
        "permutation" => json!(rs.permutation(size(&a[0]))),
        "uniform" => float_result(
            rs.uniform(a[0].as_f64().unwrap(), a[1].as_f64().unwrap()),
            ex,
        ),
        "uniform_size" => list_result(
            (0..size(&a[2]))
                .map(|_| rs.uniform(a[0].as_f64().unwrap(), a[1].as_f64().unwrap()))
                .collect(),
            ex,
        ),
        "normal" => float_result(
            rs.normal(a[0].as_f64().unwrap(), a[1].as_f64().unwrap()),
            ex,
        ),
        "normal_size" => list_result(
            (0..size(&a[2]))
                .map(|_| rs.normal(a[0].as_f64().unwrap(), a[1].as_f64().unwrap()))
                .collect(),
            ex,
        ),
        "standard_normal" => json!(rs.standard_normal()),
        "state" => state_json(rs.mt19937().key(), rs.mt19937().pos(), rs.cached_gaussian()),
        other => panic!("unknown RandomState op {other}"),
    }
}

fn py_random_op(r: &mut PyRandom, name: &str, a: &[Value]) -> Value {
    let ex = cpython_exception;
    match name {
        "random" => json!(r.random()),
        "getrandbits" => {
            let k = size(&a[0]);
            let words = r.getrandbits_words(k);
            let hex = words
                .iter()
                .rev()
                .map(|w| format!("{w:08x}"))
                .collect::<String>();
            let hex = hex.trim_start_matches('0');
            json!(if hex.is_empty() { "0" } else { hex })
        }
        "randrange_below" => int_result(r.randrange_below(int(&a[0])), ex),
        "randrange" => int_result(r.randrange(int(&a[0]), int(&a[1]), int(&a[2])), ex),
        "randint" => int_result(r.randint(int(&a[0]), int(&a[1])), ex),
        "choice" => {
            let items: Vec<usize> = (0..size(&a[0])).collect();
            int_result(r.choice(&items).map(|&i| i as i64), ex)
        }
        "shuffle" => {
            let mut v: Vec<usize> = (0..size(&a[0])).collect();
            r.shuffle(&mut v);
            json!(v)
        }
        "sample" => {
            let population: Vec<usize> = (0..size(&a[0])).collect();
            list_result(r.sample(&population, size(&a[1])), ex)
        }
        "uniform" => json!(r.uniform(a[0].as_f64().unwrap(), a[1].as_f64().unwrap())),
        "gauss" => json!(r.gauss(a[0].as_f64().unwrap(), a[1].as_f64().unwrap())),
        "normalvariate" => json!(r.normalvariate(a[0].as_f64().unwrap(), a[1].as_f64().unwrap())),
        "choices" => {
            let population: Vec<usize> = (0..size(&a[0])).collect();
            list_result(r.choices(&population, size(&a[1])), ex)
        }
        "choices_w" => {
            let w = floats(&a[0]);
            let population: Vec<usize> = (0..w.len()).collect();
            list_result(r.choices_weighted(&population, &w, size(&a[1])), ex)
        }
        "state" => state_json(r.mt19937().key(), r.mt19937().pos(), r.gauss_next()),
        other => panic!("unknown random.Random op {other}"),
    }
}

/// Replays `ops` and returns how many were checked; panics at the first mismatch.
fn replay<G>(
    label: &str,
    g: &mut G,
    ops: &[Value],
    op: fn(&mut G, &str, &[Value]) -> Value,
) -> usize {
    for (i, entry) in ops.iter().enumerate() {
        let name = entry[0].as_str().unwrap();
        let args = entry[1].as_array().unwrap();
        let got = op(g, name, args);
        assert!(
            same(&got, &entry[2]),
            "{label} op {i} {name}{}: got {got}, reference {}",
            entry[1],
            entry[2]
        );
    }
    ops.len()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn random_state_matches_numpy() {
    let golden: Value = serde_json::from_str(RANDOM_STATE).unwrap();
    let mut checked = 0;
    for stream in golden["streams"].as_array().unwrap() {
        let (label, mut rs) = if let Some(seed) = stream.get("seed") {
            let seed = seed.as_i64().unwrap();
            let rs = RandomState::try_new(seed).unwrap();
            assert_eq!(rs, RandomState::new(seed as u32));
            (format!("RandomState({seed})"), rs)
        } else {
            let words: Vec<i64> = stream["seed_array"]
                .as_array()
                .unwrap()
                .iter()
                .map(int)
                .collect();
            let label = format!("RandomState(array of {} words)", words.len());
            (label, RandomState::from_seed_array(&words).unwrap())
        };
        checked += replay(
            &label,
            &mut rs,
            stream["ops"].as_array().unwrap(),
            random_state_op,
        );
    }
    assert!(checked >= 3000, "only {checked} ops");
    for case in golden["seed_errors"].as_array().unwrap() {
        let result = if let Some(seed) = case.get("seed") {
            RandomState::try_new(seed.as_str().unwrap().parse::<i128>().unwrap())
        } else {
            let words: Vec<i64> = case["seed_array"]
                .as_array()
                .unwrap()
                .iter()
                .map(int)
                .collect();
            RandomState::from_seed_array(&words)
        };
        let got = int_result(result.map(|_| 0i64), numpy_exception);
        assert_eq!(got, case["result"], "seeding {case}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn py_random_matches_cpython() {
    let golden: Value = serde_json::from_str(PY_RANDOM).unwrap();
    let mut checked = 0;
    for stream in golden["streams"].as_array().unwrap() {
        let seed = stream["seed"].as_str().unwrap();
        let words: Vec<u32> = stream["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap() as u32)
            .collect();
        let mut r = PyRandom::from_magnitude_words(&words);
        if let Ok(small) = seed.parse::<i128>() {
            assert_eq!(PyRandom::new(small), r, "Random({seed}) from an i128");
        }
        let label = format!("Random({seed})");
        checked += replay(
            &label,
            &mut r,
            stream["ops"].as_array().unwrap(),
            py_random_op,
        );
    }
    assert!(checked >= 3000, "only {checked} ops");
}

/// The inputs `generate.py` feeds one C library function, from the same `random.Random`.
fn math_inputs(function: &str, count: usize) -> Vec<f64> {
    let seed = match function {
        "log" => 11,
        "sin" => 12,
        _ => 13,
    };
    let mut r = PyRandom::new(seed);
    (0..count)
        .map(|i| {
            let u = r.random();
            match (function, i % 4) {
                ("log", 0) => u,
                ("log", 1) => u * u * u,
                ("log", 2) => 1.0 + (u - 0.5) / 4.0,
                ("log", _) => {
                    // `ldexp`: an exact scaling by a power of two.
                    let e = r.randint(-1000, 1000).unwrap();
                    (u + 0.5) * f64::from_bits(((e + 1023) as u64) << 52)
                }
                (_, 0) => u * (2.0 * std::f64::consts::PI),
                (_, 1) => (u - 0.5) * 6.0,
                (_, 2) => (u - 0.5) * 0.3,
                _ => (u - 0.5) * 2e8,
            }
        })
        .collect()
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn gaussian_math_matches_glibc() {
    use envs::rng::{glibc_log, glibc_trig};
    let golden: Value =
        serde_json::from_str(include_str!("../golden/rng/glibc_math.json")).unwrap();
    let count = size(&golden["count"]);
    type MathFn = fn(f64) -> f64;
    let functions: [(&str, MathFn); 3] = [
        ("log", glibc_log::log),
        ("sin", glibc_trig::sin),
        ("cos", glibc_trig::cos),
    ];
    for (name, f) in functions {
        let mut crc = crc32fast::Hasher::new();
        for x in math_inputs(name, count) {
            crc.update(&f(x).to_le_bytes());
        }
        assert_eq!(
            u64::from(crc.finalize()),
            golden[name].as_u64().unwrap(),
            "{name} over {count} inputs"
        );
    }
}
