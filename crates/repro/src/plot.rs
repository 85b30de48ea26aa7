//! Figures as PNG and SVG: lines with 95% confidence bars, or scatter
//! points, with axes and a legend like the paper's figure.

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
    /// A published or analytic reference: drawn dashed, with cross markers,
    /// in its own (darker) colours.
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
    /// Force the y axis to start at zero.
    pub y_from_zero: bool,
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

fn bounds(f: &Figure) -> ((f64, f64), (f64, f64)) {
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
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y - ci);
        y1 = y1.max(y + ci);
    }
    if !x0.is_finite() {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    if f.y_from_zero {
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
    (
        (x0, x1),
        (
            if f.y_from_zero {
                y0.max(0.0).min(y0)
            } else {
                y0
            },
            y1,
        ),
    )
}

/// Figures with more series than this get a wider canvas with the legend
/// beside the plot instead of over it.
const INLINE_LEGEND_MAX: usize = 10;
/// Width of the legend column beside the plot.
const LEGEND_W: u32 = 300;

fn size(f: &Figure) -> (u32, u32) {
    if f.series.len() > INLINE_LEGEND_MAX {
        (900 + LEGEND_W, 650)
    } else {
        (900, 600)
    }
}

/// The colour of each series: curves from `COLORS`, references from `REF_COLORS`.
fn colors(f: &Figure) -> Vec<RGBColor> {
    let (mut own, mut refs) = (0usize, 0usize);
    f.series
        .iter()
        .map(|s| {
            if s.reference {
                refs += 1;
                REF_COLORS[(refs - 1) % REF_COLORS.len()]
            } else {
                own += 1;
                COLORS[(own - 1) % COLORS.len()]
            }
        })
        .collect()
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, f: &Figure) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let outside = f.series.len() > INLINE_LEGEND_MAX;
    let (root, legend) = if outside {
        let w = root.dim_in_pixel().0;
        let (a, b) = root.split_horizontally(w - LEGEND_W);
        (a, Some(b))
    } else {
        (root, None)
    };
    let palette = colors(f);
    let ((x0, x1), (y0, y1)) = bounds(f);
    let mut chart = ChartBuilder::on(&root)
        .caption(&f.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(&f.x_label)
        .y_desc(&f.y_label)
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(e)?;
    for (s, &c) in f.series.iter().zip(&palette) {
        let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.1)).collect();
        if s.reference {
            chart
                .draw_series(DashedLineSeries::new(pts.clone(), 8, 5, c.stroke_width(2)))
                .map_err(e)?
                .label(&s.label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 8, y)], c.stroke_width(2))
                });
            chart
                .draw_series(pts.iter().map(|&p| Cross::new(p, 5, c.stroke_width(2))))
                .map_err(e)?;
            continue;
        }
        let anno = match f.style {
            Style::Lines => chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(e)?,
            Style::Scatter => chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(e)?,
        };
        anno.label(&s.label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        if f.style == Style::Lines {
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, c.filled())))
                .map_err(e)?;
        }
        let bars = s.points.iter().filter(|p| p.2.is_finite() && p.2 > 0.0);
        chart
            .draw_series(bars.map(|&(x, y, ci)| {
                PathElement::new(vec![(x, y - ci), (x, y + ci)], c.stroke_width(1))
            }))
            .map_err(e)?;
    }
    if let Some(legend) = legend {
        // One row per series, dashed with a cross for references.
        for (i, (s, &c)) in f.series.iter().zip(&palette).enumerate() {
            let y = 50 + 22 * i as i32;
            if s.reference {
                for k in 0..3 {
                    legend
                        .draw(&PathElement::new(
                            vec![(10 + 11 * k, y), (17 + 11 * k, y)],
                            c.stroke_width(2),
                        ))
                        .map_err(e)?;
                }
                legend
                    .draw(&Cross::new((22, y), 5, c.stroke_width(2)))
                    .map_err(e)?;
            } else {
                legend
                    .draw(&PathElement::new(vec![(10, y), (40, y)], c.stroke_width(2)))
                    .map_err(e)?;
                legend
                    .draw(&Circle::new((25, y), 3, c.filled()))
                    .map_err(e)?;
            }
            legend
                .draw(&Text::new(
                    s.label.clone(),
                    (48, y - 7),
                    ("sans-serif", 13).into_font(),
                ))
                .map_err(e)?;
        }
    } else {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()
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
