//! The report's SVG chart of each pairing's score with its 95% interval.

use super::{pct, Report};

/// A label that fits the chart: long specs (paths, command lines) keep their ends, which
/// tell them apart.
fn chart_label(label: String) -> String {
    const MAX: usize = 52;
    if label.chars().count() <= MAX {
        return label;
    }
    let tail: Vec<char> = label.chars().rev().take(MAX - 1).collect();
    format!("…{}", tail.into_iter().rev().collect::<String>())
}

/// A bar chart of player A's score per pairing with its 95% interval as an error bar, drawn
/// through plotters' SVG backend.
pub fn svg(r: &Report) -> String {
    use plotters::element::DashedPathElement;
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    const LABEL: i32 = 330;
    const BAR: i32 = 400;
    const ROW: i32 = 30;
    const TOP: i32 = 40;
    let rows = r.pairings.len() as i32;
    let (width, height) = (LABEL + BAR + 90, TOP + ROW * rows + 40);
    let bottom = TOP + ROW * rows;
    let x = |p: f64| LABEL + (BAR as f64 * p).round() as i32;
    let font = |size: f64| ("sans-serif", size).into_font().color(&BLACK);
    let right = font(12.0).pos(Pos::new(HPos::Right, VPos::Center));
    let centre = font(12.0).pos(Pos::new(HPos::Center, VPos::Top));
    let left = font(12.0).pos(Pos::new(HPos::Left, VPos::Center));
    let grey = RGBColor(0xbb, 0xbb, 0xbb);
    let bar = RGBColor(0x4a, 0x7f, 0xb5);
    let whisker = BLACK.stroke_width(2);
    let mut out = String::new();
    // Drawing into a string cannot fail; a failed element would only be missing.
    {
        let root =
            SVGBackend::with_string(&mut out, (width as u32, height as u32)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let _ = root.draw(&Text::new(
            "Score of player A (95% Wilson interval)",
            (LABEL, 12),
            font(14.0),
        ));
        for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let line = [(x(tick), TOP), (x(tick), bottom)];
            if tick == 0.5 {
                let _ = root.draw(&DashedPathElement::new(line, 4, 3, grey));
            } else {
                let _ = root.draw(&PathElement::new(line, grey));
            }
            let label = format!("{}%", (tick * 100.0) as u32);
            let _ = root.draw(&Text::new(label, (x(tick), bottom + 6), centre.clone()));
        }
        for (i, s) in r.pairings.iter().enumerate() {
            let y = TOP + ROW * i as i32;
            let mid = y + ROW / 2;
            let label = chart_label(format!("{}. {} vs {}", s.test, s.player_a, s.player_b));
            let _ = root.draw(&Text::new(label, (LABEL - 8, mid), right.clone()));
            let (Some(p), Some(ci)) = (s.score, s.score_ci) else {
                continue;
            };
            let _ = root.draw(&Rectangle::new(
                [(LABEL, y + 6), (x(p), y + ROW - 6)],
                bar.filled(),
            ));
            let (lo, hi) = (x(ci.low), x(ci.high));
            let _ = root.draw(&PathElement::new([(lo, mid), (hi, mid)], whisker));
            let _ = root.draw(&PathElement::new([(lo, mid - 6), (lo, mid + 6)], whisker));
            let _ = root.draw(&PathElement::new([(hi, mid - 6), (hi, mid + 6)], whisker));
            let text = format!("{} ({})", pct(p), s.total.games());
            let _ = root.draw(&Text::new(text, (LABEL + BAR + 8, mid), left.clone()));
        }
        let _ = root.present();
    }
    out
}
