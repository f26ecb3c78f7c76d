//! Transport retry timing (`docs/vical-protocol.md`, "Retries and backoff"): exponential
//! backoff, `Retry-After` honoured (seconds or an HTTP-date), everything capped. Pure:
//! the caller sleeps.

/// Format retries per decision after the first reply (V-ICAL: three).
pub const MAX_FORMAT_RETRIES: u32 = 3;
/// Transport retries per request after the first attempt.
pub const MAX_TRANSPORT_RETRIES: u32 = 3;
/// The first backoff; each later one doubles it.
pub const BASE_DELAY_MS: u64 = 1_000;
/// No wait is longer than this, whatever the server asks.
pub const MAX_DELAY_MS: u64 = 60_000;

/// The wait before transport retry `retry` (1-based): 1 s, 2 s, 4 s, ... or the
/// server's `Retry-After` when it gave one, capped at [`MAX_DELAY_MS`].
pub fn backoff_ms(retry: u32, retry_after_s: Option<u64>) -> u64 {
    let ms = match retry_after_s {
        Some(s) => s.saturating_mul(1_000),
        None => BASE_DELAY_MS.saturating_mul(1u64 << retry.saturating_sub(1).min(20)),
    };
    ms.min(MAX_DELAY_MS)
}

/// A `Retry-After` header value in seconds from `now_unix_s`: delta-seconds or an
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`); a past date is 0.
pub fn parse_retry_after(value: &str, now_unix_s: u64) -> Option<u64> {
    let v = value.trim();
    if let Ok(s) = v.parse::<u64>() {
        return Some(s);
    }
    http_date_unix(v).map(|t| t.saturating_sub(now_unix_s))
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Seconds since 1970 of an IMF-fixdate.
fn http_date_unix(v: &str) -> Option<u64> {
    let rest = v.split_once(", ")?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    if f.len() != 5 || f[4] != "GMT" {
        return None;
    }
    let day: i64 = f[0].parse().ok()?;
    let month = MONTHS.iter().position(|m| *m == f[1])? as i64 + 1;
    let year: i64 = f[2].parse().ok()?;
    let hms: Vec<i64> = f[3]
        .split(':')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, s] = hms[..] else { return None };
    // IMF-fixdate years have four digits and times are not negative; anything else
    // would overflow the second count.
    let in_range = (1..=9999).contains(&year)
        && (1..=31).contains(&day)
        && (0..=23).contains(&h)
        && (0..=59).contains(&m)
        && (0..=60).contains(&s);
    if !in_range {
        return None;
    }
    let t = days_from_civil(year, month, day) * 86_400 + h * 3_600 + m * 60 + s;
    u64::try_from(t).ok()
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_past_four_digits_is_not_a_date() {
        // Found by the fuzzer (docs/fuzzing.md): the day count overflowed.
        let huge = "Sun, 06 Nov 9223372036854775807 08:49:37 GMT";
        assert_eq!(parse_retry_after(huge, 0), None);
        let negative = "Sun, 06 Nov 1994 -9223372036854775807:00:00 GMT";
        assert_eq!(parse_retry_after(negative, 0), None);
        assert_eq!(
            parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", 0),
            Some(253_402_300_799)
        );
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        assert_eq!(
            (1..=4).map(|r| backoff_ms(r, None)).collect::<Vec<_>>(),
            vec![1_000, 2_000, 4_000, 8_000]
        );
        assert_eq!(backoff_ms(40, None), MAX_DELAY_MS);
    }

    #[test]
    fn retry_after_replaces_the_schedule_and_is_capped() {
        assert_eq!(backoff_ms(3, Some(1)), 1_000);
        assert_eq!(backoff_ms(1, Some(7)), 7_000);
        assert_eq!(backoff_ms(1, Some(0)), 0);
        assert_eq!(backoff_ms(1, Some(3_600)), MAX_DELAY_MS);
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after(" 5 ", 0), Some(5));
        // RFC 9110's example date is 784111777 s after the epoch.
        let date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assert_eq!(parse_retry_after(date, 784_111_777 - 30), Some(30));
        assert_eq!(parse_retry_after(date, 784_111_777 + 30), Some(0));
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT", 0),
            Some(0)
        );
        assert_eq!(
            parse_retry_after("Tue, 29 Feb 2028 12:00:00 GMT", 1_835_438_400 - 2),
            Some(2)
        );
        assert_eq!(parse_retry_after("soon", 0), None);
        assert_eq!(parse_retry_after("-3", 0), None);
        assert_eq!(parse_retry_after("Sun, 06 Foo 1994 08:49:37 GMT", 0), None);
    }
}
