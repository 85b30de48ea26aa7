//! Figures as PNG and SVG: lines with 95% confidence bars, or scatter
//! points, with axes and a legend like the paper's figure.

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// One curve of a figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    /// (x, y, half-width of the 95% CI; NaN for none).
    pub points: Vec<(f64, f64, f64)>,
    /// A published or analytic reference (the paper's value): drawn
    /// dash-dotted with plus markers, in its own (darker) colours.
    pub reference: bool,
}

/// How the points are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Lines,
    Scatter,
}

/// A figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub style: Style,
    /// Force the y axis to start at zero (ignored on a log axis).
    pub y_from_zero: bool,
    /// Logarithmic x axis (the paper's axis is; x values must be > 0).
    pub x_log: bool,
}

static FONT: Once = Once::new();

fn register_font() {
    FONT.call_once(|| {
        // DejaVu Sans ships inside the `dejavu` crate: no system fonts needed.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

const COLORS: [RGBColor; 16] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(174, 199, 232),
    RGBColor(255, 152, 150),
    RGBColor(152, 223, 138),
    RGBColor(255, 187, 120),
    RGBColor(197, 176, 213),
    RGBColor(196, 156, 148),
];

/// Reference series: dark, saturated, distinct from the curves' palette.
const REF_COLORS: [RGBColor; 5] = [
    RGBColor(0, 0, 0),
    RGBColor(120, 0, 0),
    RGBColor(0, 70, 0),
    RGBColor(0, 0, 130),
    RGBColor(110, 60, 0),
];

/// Point markers of the curves, so that series differ in greyscale too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Square,
    Triangle,
    Cross,
    OpenCircle,
    OpenSquare,
    OpenTriangle,
    Diamond,
    /// References only.
    Plus,
}

const MARKERS: [Marker; 8] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Cross,
    Marker::OpenCircle,
    Marker::OpenSquare,
    Marker::OpenTriangle,
    Marker::Diamond,
];

/// Dash patterns (dash, gap in pixels; `None` solid). Their count (3) is
/// prime to the markers' (8), so 24 series differ in marker or dash.
const DASHES: [Option<(u32, u32)>; 3] = [None, Some((10, 5)), Some((3, 3))];

/// The pattern of references: long dashes.
const REF_DASH: Option<(u32, u32)> = Some((16, 4));

/// How series `i` of `f` is drawn: colour, marker, dash.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look {
    pub color: RGBColor,
    pub marker: Marker,
    pub dash: Option<(u32, u32)>,
}

/// The look of every series: curves cycle through colours, markers and
/// dashes; references are dark, long-dashed, with plus markers.
pub fn looks(f: &Figure) -> Vec<Look> {
    let (mut own, mut refs) = (0usize, 0usize);
    f.series
        .iter()
        .map(|s| {
            if s.reference {
                refs += 1;
                Look {
                    color: REF_COLORS[(refs - 1) % REF_COLORS.len()],
                    marker: Marker::Plus,
                    dash: REF_DASH,
                }
            } else {
                own += 1;
                let i = own - 1;
                Look {
                    color: COLORS[i % COLORS.len()],
                    marker: MARKERS[i % MARKERS.len()],
                    dash: DASHES[i % DASHES.len()],
                }
            }
        })
        .collect()
}

/// Calls `$draw` with the element that draws marker `$m` in colour `$c`
/// at `$p` (a data point or, in the legend, a pixel); one arm per marker,
/// since each is a different type.
macro_rules! with_marker {
    ($m:expr, $p:expr, $c:expr, $draw:expr) => {{
        let (c, p): (RGBColor, _) = ($c, $p);
        let (filled, open, r) = (c.filled(), c.stroke_width(2), 4);
        let e = EmptyElement::at(p);
        match $m {
            Marker::Circle => $draw(e + Circle::new((0, 0), r, filled)),
            Marker::OpenCircle => $draw(e + Circle::new((0, 0), r, open)),
            Marker::Square => $draw(e + Rectangle::new([(-r, -r), (r, r)], filled)),
            Marker::OpenSquare => $draw(e + Rectangle::new([(-r, -r), (r, r)], open)),
            Marker::Triangle => {
                $draw(e + Polygon::new(vec![(0, -r - 1), (r + 1, r), (-r - 1, r)], filled))
            }
            Marker::OpenTriangle => $draw(
                e + PathElement::new(
                    vec![(0, -r - 1), (r + 1, r), (-r - 1, r), (0, -r - 1)],
                    open,
                ),
            ),
            Marker::Diamond => $draw(
                e + Polygon::new(
                    vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)],
                    filled,
                ),
            ),
            Marker::Cross => $draw(
                e + PathElement::new(vec![(-r, -r), (r, r)], open)
                    + PathElement::new(vec![(-r, r), (r, -r)], open),
            ),
            Marker::Plus => $draw(
                e + PathElement::new(vec![(-r - 1, 0), (r + 1, 0)], open)
                    + PathElement::new(vec![(0, -r - 1), (0, r + 1)], open),
            ),
        }
    }};
}

/// An axis over positions `lo..hi` (log10 of the values on a log axis)
/// with its own ticks and labels.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Ranged for Axis {
    type FormatOption = plotters::coord::ranged1d::NoDefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (f * f64::from(limit.1 - limit.0)).round() as i32
    }
    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, _hint: H) -> Vec<f64> {
        ticks(self.lo, self.hi, self.log)
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, v: &f64) -> String {
        tick_label(*v, self.log)
    }
}

/// Where a value goes on an axis: log10 on a log axis.
fn pos(log: bool, v: f64) -> f64 {
    if log {
        v.log10()
    } else {
        v
    }
}

/// Whether x can go on a log axis: every x positive and spanning at least
/// a decade and a half (30x), or the figure asks for it.
fn x_is_log(f: &Figure) -> bool {
    let xs: Vec<f64> = f
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| x.is_finite())
        .collect();
    let positive = !xs.is_empty() && xs.iter().all(|&x| x > 0.0);
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, 0f64), |a, &x| (a.0.min(x), a.1.max(x)));
    positive && (f.x_log || hi / lo >= 30.0)
}

/// Whether y goes on a log axis: every value and CI bar positive and
/// spanning three decades or more.
fn y_is_log(f: &Figure) -> bool {
    let ys: Vec<(f64, f64)> = f
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| p.1.is_finite())
        .map(|p| (p.1, if p.2.is_finite() { p.2 } else { 0.0 }))
        .collect();
    if ys.is_empty() || ys.iter().any(|&(y, ci)| y - ci <= 0.0) {
        return false;
    }
    let lo = ys
        .iter()
        .map(|&(y, ci)| y - ci)
        .fold(f64::INFINITY, f64::min);
    let hi = ys.iter().map(|&(y, ci)| y + ci).fold(0.0, f64::max);
    hi / lo >= 1000.0
}

fn bounds(f: &Figure, xl: bool, yl: bool) -> ((f64, f64), (f64, f64)) {
    let pts = f
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| p.0.is_finite() && p.1.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y, ci) in pts {
        let ci = if ci.is_finite() { ci } else { 0.0 };
        x0 = x0.min(pos(xl, x));
        x1 = x1.max(pos(xl, x));
        y0 = y0.min(pos(yl, y - ci));
        y1 = y1.max(pos(yl, y + ci));
    }
    if !x0.is_finite() {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    let zero = f.y_from_zero && !yl;
    if zero {
        y0 = y0.min(0.0);
    }
    let pad = |a: f64, b: f64| {
        if (b - a).abs() < 1e-12 {
            (a - 0.5, b + 0.5)
        } else {
            (a - 0.05 * (b - a), b + 0.05 * (b - a))
        }
    };
    let (x0, x1) = pad(x0, x1);
    let (y0, y1) = pad(y0, y1);
    ((x0, x1), (if zero { y0.max(0.0).min(y0) } else { y0 }, y1))
}

/// Tick positions on an axis from `a` to `b`: 1-2-5 multiples of a power of
/// ten on a linear axis; on a log axis (positions are log10 of values) the
/// powers of ten and, when few, their 2 and 5 multiples.
fn ticks(a: f64, b: f64, log: bool) -> Vec<f64> {
    if log {
        let (lo, hi) = (a.floor() as i32, b.ceil() as i32);
        let mults: &[f64] = if hi - lo <= 3 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        let mut t = Vec::new();
        for e in lo..=hi {
            for m in mults {
                let v = (m * 10f64.powi(e)).log10();
                if v >= a && v <= b {
                    t.push(v);
                }
            }
        }
        return t;
    }
    let span = (b - a).max(1e-12);
    let raw = span / 8.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 10.0)
        .unwrap_or(10.0 * mag);
    let mut t = Vec::new();
    let mut v = (a / step).ceil() * step;
    while v <= b + 1e-9 * step {
        t.push(if v.abs() < 1e-9 * step { 0.0 } else { v });
        v += step;
    }
    t
}

/// A tick label: the value (10^v on a log axis), short.
fn tick_label(v: f64, log: bool) -> String {
    let x = if log { 10f64.powf(v) } else { v };
    let r = if x.abs() >= 1.0 || x == 0.0 {
        (x * 1000.0).round() / 1000.0
    } else {
        x
    };
    let s = format!("{}", (r * 1e6).round() / 1e6);
    if s.len() > 8 {
        format!("{x:.2e}")
    } else {
        s
    }
}

/// Width of the legend column beside the plot: the legend never covers data.
const LEGEND_W: u32 = 300;

fn size(f: &Figure) -> (u32, u32) {
    let h = (80 + 22 * f.series.len() as u32).max(600);
    (900 + LEGEND_W, h)
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, f: &Figure) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let w = root.dim_in_pixel().0;
    let (root, legend) = root.split_horizontally(w - LEGEND_W);
    let look = looks(f);
    let (xl, yl) = (x_is_log(f), y_is_log(f));
    let ((x0, x1), (y0, y1)) = bounds(f, xl, yl);
    let x_axis = Axis {
        lo: x0,
        hi: x1,
        log: xl,
    };
    let y_axis = Axis {
        lo: y0,
        hi: y1,
        log: yl,
    };
    let x_desc = if xl {
        format!("{} (log scale)", f.x_label)
    } else {
        f.x_label.clone()
    };
    let y_desc = if yl {
        format!("{} (log scale)", f.y_label)
    } else {
        f.y_label.clone()
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(&f.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_axis, y_axis)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(&x_desc)
        .y_desc(&y_desc)
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(e)?;
    for (s, lk) in f.series.iter().zip(&look) {
        let c = lk.color;
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(|p| (pos(xl, p.0), pos(yl, p.1)))
            .collect();
        if s.reference || f.style == Style::Lines {
            match lk.dash {
                None => chart
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                    .map_err(e)?,
                Some((d, g)) => chart
                    .draw_series(DashedLineSeries::new(pts.clone(), d, g, c.stroke_width(2)))
                    .map_err(e)?,
            };
        }
        for &p in &pts {
            with_marker!(lk.marker, p, c, |el| chart
                .draw_series(std::iter::once(el))
                .map(|_| ())
                .map_err(e))?;
        }
        let bars = s
            .points
            .iter()
            .filter(|p| p.0.is_finite() && p.2.is_finite() && p.2 > 0.0);
        chart
            .draw_series(bars.map(|&(x, y, ci)| {
                let x = pos(xl, x);
                PathElement::new(
                    vec![(x, pos(yl, y - ci)), (x, pos(yl, y + ci))],
                    c.stroke_width(1),
                )
            }))
            .map_err(e)?;
    }
    // The legend, beside the plot: one row per series with its line
    // pattern and marker.
    for (i, (s, lk)) in f.series.iter().zip(&look).enumerate() {
        let y = 50 + 22 * i as i32;
        let c = lk.color;
        let style = c.stroke_width(2);
        let line = match lk.dash {
            _ if !s.reference && f.style == Style::Scatter => vec![],
            None => vec![(6, 38)],
            Some((d, g)) => {
                let mut v = Vec::new();
                let mut x = 6;
                while x < 38 {
                    v.push((x, (x + d as i32).min(38)));
                    x += (d + g) as i32;
                }
                v
            }
        };
        for (a, b) in line {
            legend
                .draw(&PathElement::new(vec![(a, y), (b, y)], style))
                .map_err(e)?;
        }
        with_marker!(lk.marker, (22, y), c, |el| legend.draw(&el).map_err(e))?;
        legend
            .draw(&Text::new(
                s.label.clone(),
                (48, y - 7),
                ("sans-serif", 13).into_font(),
            ))
            .map_err(e)?;
    }
    root.present().map_err(e)?;
    Ok(())
}

/// Writes `stem.png` and `stem.svg`.
pub fn write(f: &Figure, stem: &Path) -> Result<(), String> {
    register_font();
    let png = stem.with_extension("png");
    let svg = stem.with_extension("svg");
    let wh = size(f);
    draw(BitMapBackend::new(&png, wh).into_drawing_area(), f)?;
    draw(SVGBackend::new(&svg, wh).into_drawing_area(), f)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(n: usize, xs: &[f64]) -> Figure {
        let mut series: Vec<Series> = (0..n)
            .map(|i| Series {
                label: format!("curve {i}"),
                points: xs
                    .iter()
                    .map(|&x| (x, 10.0 - i as f64 + x.ln(), 0.4))
                    .collect(),
                reference: false,
            })
            .collect();
        series.push(Series {
            label: "paper".into(),
            points: xs.iter().map(|&x| (x, 9.0, f64::NAN)).collect(),
            reference: true,
        });
        Figure {
            title: "test".into(),
            x_label: "packet swaps per swap event (K)".into(),
            y_label: "goodput (Mb/s)".into(),
            series,
            style: Style::Lines,
            y_from_zero: true,
            x_log: false,
        }
    }

    /// Every pair of the first 24 curves differs in marker or dash, so the
    /// figure reads in greyscale; references look like no curve.
    #[test]
    fn series_differ_in_marker_or_dash() {
        let f = fig(24, &[1.0, 8.0, 64.0]);
        let l = looks(&f);
        for i in 0..24 {
            for j in 0..i {
                assert!(
                    (l[i].marker, l[i].dash) != (l[j].marker, l[j].dash),
                    "{i} and {j}"
                );
            }
            assert_ne!((l[i].marker, l[i].dash), (l[24].marker, l[24].dash));
        }
    }

    /// K = 1, 8, 64 goes on a log axis; 1, 2, 3 does not, nor does an axis
    /// with 0 on it; ticks at 1-2-5 values.
    #[test]
    fn values_spanning_decades_get_a_log_axis() {
        assert!(x_is_log(&fig(2, &[1.0, 8.0, 64.0])));
        assert!(!x_is_log(&fig(2, &[1.0, 2.0, 3.0])));
        let mut f = fig(2, &[1.0, 2.0, 3.0]);
        f.x_log = true;
        assert!(x_is_log(&f));
        assert!(!x_is_log(&fig(2, &[0.0, 1.0, 500.0])));
        let t: Vec<String> = ticks(0.0, 64f64.log10(), true)
            .iter()
            .map(|&v| tick_label(v, true))
            .collect();
        assert_eq!(t, ["1", "2", "5", "10", "20", "50"]);
        let t: Vec<String> = ticks(0.0, 9.5, false)
            .iter()
            .map(|&v| tick_label(v, false))
            .collect();
        assert_eq!(t, ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    }

    /// The legend sits beside the plot, never over it: the canvas is the
    /// plot's width plus the legend column.
    #[test]
    fn figures_render_with_the_legend_beside_the_plot() {
        let dir = std::env::temp_dir().join(format!("reorderlab-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = fig(7, &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
        assert_eq!(size(&f).0, 900 + LEGEND_W);
        write(&f, &dir.join("fig")).unwrap();
        assert!(std::fs::metadata(dir.join("fig.png")).unwrap().len() > 1000);
        let svg = std::fs::read_to_string(dir.join("fig.svg")).unwrap();
        assert!(svg.contains("curve 6") && svg.contains("paper"));
        assert!(svg.contains("(log scale)"));
        if std::env::var_os("REORDERLAB_KEEP_PLOT").is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
