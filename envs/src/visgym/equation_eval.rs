//! Whether a matchstick equation is correct, as the reference decides it: split on
//! `=`, evaluate both sides with Python's `eval` (ints exact, `/` true division, `**`,
//! `//`, unary signs, no leading zeros) and compare within 1e-6. Any error (syntax,
//! division by zero, overflow) makes the equation incorrect.

#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Num(i128),
    Op(&'static str),
}

fn tokenize(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &s[start..i];
            // Python rejects `07` but accepts `00`.
            if digits.len() > 1 && digits.starts_with('0') && digits.bytes().any(|d| d != b'0') {
                return None;
            }
            out.push(Tok::Num(digits.parse().ok()?));
            continue;
        }
        let two = &s[i..(i + 2).min(s.len())];
        let op = match two {
            "**" => "**",
            "//" => "//",
            _ => match c {
                b'+' => "+",
                b'-' => "-",
                b'*' => "*",
                b'/' => "/",
                _ => return None,
            },
        };
        i += op.len();
        out.push(Tok::Op(op));
    }
    Some(out)
}

struct Eval {
    toks: Vec<Tok>,
    pos: usize,
}

impl Eval {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).copied()
    }

    fn eat(&mut self, op: &'static str) -> bool {
        if self.peek() == Some(Tok::Op(op)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// sum: term (('+' | '-') term)*
    fn sum(&mut self) -> Option<Num> {
        let mut a = self.term()?;
        loop {
            if self.eat("+") {
                a = add(a, self.term()?, false)?;
            } else if self.eat("-") {
                a = add(a, self.term()?, true)?;
            } else {
                return Some(a);
            }
        }
    }

    /// term: factor (('*' | '/' | '//') factor)*
    fn term(&mut self) -> Option<Num> {
        let mut a = self.factor()?;
        loop {
            if self.eat("*") {
                a = mul(a, self.factor()?)?;
            } else if self.eat("//") {
                a = floordiv(a, self.factor()?)?;
            } else if self.eat("/") {
                let b = self.factor()?;
                a = truediv(a, b)?;
            } else {
                return Some(a);
            }
        }
    }

    /// factor: ('+' | '-') factor | power
    fn factor(&mut self) -> Option<Num> {
        if self.eat("+") {
            return self.factor();
        }
        if self.eat("-") {
            return Some(match self.factor()? {
                Num::Int(i) => Num::Int(i.checked_neg()?),
                Num::Float(f) => Num::Float(-f),
            });
        }
        self.power()
    }

    /// power: NUMBER ['**' factor]
    fn power(&mut self) -> Option<Num> {
        let base = match self.peek()? {
            Tok::Num(n) => {
                self.pos += 1;
                Num::Int(n)
            }
            Tok::Op(_) => return None,
        };
        if self.eat("**") {
            let exp = self.factor()?;
            return pow(base, exp);
        }
        Some(base)
    }
}

fn add(a: Num, b: Num, sub: bool) -> Option<Num> {
    Some(match (a, b) {
        (Num::Int(x), Num::Int(y)) => Num::Int(if sub {
            x.checked_sub(y)?
        } else {
            x.checked_add(y)?
        }),
        _ => Num::Float(if sub { a.f() - b.f() } else { a.f() + b.f() }),
    })
}

fn mul(a: Num, b: Num) -> Option<Num> {
    Some(match (a, b) {
        (Num::Int(x), Num::Int(y)) => Num::Int(x.checked_mul(y)?),
        _ => Num::Float(a.f() * b.f()),
    })
}

fn truediv(a: Num, b: Num) -> Option<Num> {
    if b.f() == 0.0 {
        return None;
    }
    // Int / int is correctly rounded in Python; it equals the float quotient while
    // both operands are exact doubles, which holds for every reachable equation.
    Some(Num::Float(a.f() / b.f()))
}

fn floordiv(a: Num, b: Num) -> Option<Num> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => {
            if y == 0 {
                return None;
            }
            let q = x / y;
            Some(Num::Int(if x % y != 0 && ((x < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }))
        }
        _ => {
            if b.f() == 0.0 {
                return None;
            }
            Some(Num::Float(libm::floor(a.f() / b.f())))
        }
    }
}

fn pow(base: Num, exp: Num) -> Option<Num> {
    match (base, exp) {
        (Num::Int(b), Num::Int(e)) if e >= 0 => {
            let e = u32::try_from(e).ok()?;
            Some(Num::Int(b.checked_pow(e)?))
        }
        (Num::Int(0), Num::Int(_)) => None,
        _ => {
            if base.f() == 0.0 && exp.f() < 0.0 {
                return None;
            }
            let v = libm::pow(base.f(), exp.f());
            if v.is_finite() {
                Some(Num::Float(v))
            } else {
                None
            }
        }
    }
}

fn eval_side(s: &str) -> Option<Num> {
    let mut e = Eval {
        toks: tokenize(s)?,
        pos: 0,
    };
    let v = e.sum()?;
    if e.pos != e.toks.len() {
        return None;
    }
    Some(v)
}

/// `is_equation_correct` of the reference.
pub fn is_equation_correct(eq: &str) -> bool {
    let parts: Vec<&str> = eq.split('=').collect();
    if parts.len() != 2 {
        return false;
    }
    let (Some(l), Some(r)) = (eval_side(parts[0]), eval_side(parts[1])) else {
        return false;
    };
    match (l, r) {
        (Num::Int(a), Num::Int(b)) => a == b,
        _ => (l.f() - r.f()).abs() < 1e-6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_semantics() {
        assert!(is_equation_correct("3+5=8"));
        assert!(is_equation_correct("00+8=8"));
        assert!(!is_equation_correct("07+1=8"));
        assert!(is_equation_correct("8/2=4"));
        assert!(!is_equation_correct("1/3=0"));
        assert!(!is_equation_correct("5/0=0"));
        assert!(is_equation_correct("2+3*4=14"));
        assert!(is_equation_correct("5--3=8"));
        assert!(is_equation_correct("2**3=8"));
        assert!(is_equation_correct("-2**2=-4"));
        assert!(is_equation_correct("7//2=3"));
        assert!(!is_equation_correct("3+5=8=8"));
        assert!(!is_equation_correct("3+=8"));
        assert!(!is_equation_correct("=8"));
    }
}
