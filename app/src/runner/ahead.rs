//! The run page's words for how far its preparation of the first request is
//! (`bench::first_request`, run between the page's turns by `browser/ahead.rs`).

use bench::first_request::Progress;

use super::estimate::bytes_text;

/// A line for the run form (`None`: nothing worth saying).
pub fn progress_text(p: &Progress) -> Option<String> {
    match p {
        Progress::Starting | Progress::Failed(_) => None,
        Progress::Frames { done, total } => Some(format!(
            "Preparing the first request while you choose: {done} of {total} demonstration \
             frames encoded."
        )),
        Progress::Ready { images, bytes } => Some(format!(
            "The first request is prepared: {images} image{}, {}.",
            if *images == 1 { "" } else { "s" },
            bytes_text(*bytes as u64)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_in_words() {
        assert_eq!(progress_text(&Progress::Starting), None);
        assert_eq!(progress_text(&Progress::Failed("no".into())), None);
        assert_eq!(
            progress_text(&Progress::Frames { done: 3, total: 32 }).unwrap(),
            "Preparing the first request while you choose: 3 of 32 demonstration frames encoded."
        );
        assert_eq!(
            progress_text(&Progress::Ready {
                images: 33,
                bytes: 1_739_652
            })
            .unwrap(),
            "The first request is prepared: 33 images, 1.7 MB."
        );
        assert!(progress_text(&Progress::Ready {
            images: 1,
            bytes: 20_000
        })
        .unwrap()
        .contains("1 image, 20 KB"));
    }
}
