//! How much of a page a full-page screenshot holds: one plan, shared by
//! both backends (which take it) and the tool pack (which says it), so a
//! 200,000-pixel page neither exhausts the browser's memory nor comes back
//! with a caption that hides what was left out.

/// The most pixels a full-page screenshot holds (about 6,000 rows of a
/// 1280-wide page at full size; some 30 MB as raw pixels in the browser).
pub const FULL_PAGE_PIXELS: f64 = 8_000_000.0;
/// Smaller than this, text cannot be read: a larger page is cut instead.
pub const LEAST_FULL_PAGE_SCALE: f64 = 0.5;
/// The longest side of a picture Chromium draws in one piece.
pub const LONGEST_SIDE: f64 = 16_384.0;

/// What a full-page screenshot takes of a page: the region from the top
/// left, in CSS pixels, and the scale it is drawn at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FullPage {
    /// The page's size, in CSS pixels.
    pub page_width: f64,
    /// The page's size, in CSS pixels.
    pub page_height: f64,
    /// The part taken, from the top left, in CSS pixels.
    pub width: f64,
    /// The part taken, from the top left, in CSS pixels.
    pub height: f64,
    /// Image pixels per CSS pixel.
    pub scale: f64,
}

impl FullPage {
    /// The plan for a page of this size: the whole of it at full size
    /// where it fits the pixel budget; else scaled down to fit, to half
    /// size at most; else its top part at half size.
    pub fn plan(page_width: f64, page_height: f64) -> Self {
        let page_width = page_width.ceil().max(1.0);
        let page_height = page_height.ceil().max(1.0);
        let whole = page_width * page_height;
        let fits = (FULL_PAGE_PIXELS / whole)
            .sqrt()
            .min(LONGEST_SIDE / page_width.max(page_height))
            .min(1.0);
        // Hundredths, rounded down, so the picture is never over budget.
        let scale = ((fits * 100.0).floor() / 100.0).max(LEAST_FULL_PAGE_SCALE);
        let width = page_width.min((LONGEST_SIDE / scale).floor());
        let height = page_height
            .min((LONGEST_SIDE / scale).floor())
            .min((FULL_PAGE_PIXELS / (width * scale * scale)).floor());
        Self {
            page_width,
            page_height,
            width,
            height,
            scale,
        }
    }

    /// Whether the picture is smaller than the page.
    pub fn scaled(&self) -> bool {
        self.scale < 1.0
    }

    /// Whether part of the page is left out.
    pub fn cut(&self) -> bool {
        self.width < self.page_width || self.height < self.page_height
    }

    /// What the picture holds, for its caption: `1280×3000 CSS pixels`,
    /// `…, drawn at 62 % size`, or `…; too large for one picture: the top
    /// 1280×25,000 drawn at half size`.
    pub fn describe(&self) -> String {
        let size = format!(
            "{}×{} CSS pixels",
            thousands(self.page_width),
            thousands(self.page_height)
        );
        let at = if self.scale == LEAST_FULL_PAGE_SCALE {
            "half size".to_owned()
        } else {
            format!("{:.0} % size", self.scale * 100.0)
        };
        if self.cut() {
            format!(
                "{size}; too large for one picture: its top left {}×{} drawn at {at} (scroll and take a viewport screenshot for the rest)",
                thousands(self.width),
                thousands(self.height)
            )
        } else if self.scaled() {
            format!("{size}, drawn at {at}")
        } else {
            size
        }
    }
}

/// `200016` as `200,016`; four digits stay as they are (`1280`), as the
/// viewport's size is written everywhere else.
fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    if digits.len() <= 4 {
        return digits;
    }
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(plan: &FullPage) -> f64 {
        (plan.width * plan.scale) * (plan.height * plan.scale)
    }

    #[test]
    fn a_page_that_fits_is_taken_whole_at_full_size() {
        let plan = FullPage::plan(1280.0, 3000.0);
        assert_eq!((plan.width, plan.height, plan.scale), (1280.0, 3000.0, 1.0));
        assert_eq!(plan.describe(), "1280×3000 CSS pixels");
    }

    #[test]
    fn a_larger_page_is_scaled_to_fit_then_cut() {
        let scaled = FullPage::plan(1280.0, 12_000.0);
        assert!(scaled.scaled() && !scaled.cut(), "{scaled:?}");
        assert!(pixels(&scaled) <= FULL_PAGE_PIXELS);
        assert!(
            scaled.describe().ends_with("% size"),
            "{}",
            scaled.describe()
        );

        let cut = FullPage::plan(1280.0, 200_016.0);
        assert!(cut.cut(), "{cut:?}");
        assert_eq!(cut.scale, LEAST_FULL_PAGE_SCALE);
        assert!(pixels(&cut) <= FULL_PAGE_PIXELS);
        assert!(cut.height * cut.scale <= LONGEST_SIDE);
        assert!(
            cut.describe()
                .starts_with("1280×200,016 CSS pixels; too large"),
            "{}",
            cut.describe()
        );
        // A very wide page is cut along both axes.
        let wide = FullPage::plan(100_000.0, 100_000.0);
        assert!(wide.width * wide.scale <= LONGEST_SIDE && pixels(&wide) <= FULL_PAGE_PIXELS);
        // A narrow tall one stays within the longest side.
        let narrow = FullPage::plan(200.0, 500_000.0);
        assert!(narrow.height * narrow.scale <= LONGEST_SIDE, "{narrow:?}");
    }
}
