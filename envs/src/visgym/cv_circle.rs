//! `cv2.circle` with the default 8-connected lines, pixel for pixel as opencv-python
//! 4.11 draws it (checked against it for thousands of centres, radii and image sizes,
//! clipped or not): a filled disc (`thickness=-1`) is OpenCV's integer midpoint circle,
//! and a thick ring is a polygon of the circle (one vertex every 90°, 30°, 18° or 5°,
//! by radius, at OpenCV's seven-decimal sine table) stroked segment by segment as
//! quadrilaterals with round caps, in 16.16 fixed point.
//!
//! Drawing marks a [`Mask`]; the caller paints the marked pixels in one colour.

/// Pixels marked by drawing, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    width: i64,
    height: i64,
    marks: Vec<bool>,
}

impl Mask {
    pub fn new(width: usize, height: usize) -> Self {
        Mask {
            width: width as i64,
            height: height as i64,
            marks: vec![false; width * height],
        }
    }

    pub fn get(&self, x: usize, y: usize) -> bool {
        self.marks[y * self.width as usize + x]
    }

    fn set(&mut self, x: i64, y: i64) {
        if (0..self.width).contains(&x) && (0..self.height).contains(&y) {
            self.marks[(y * self.width + x) as usize] = true;
        }
    }

    /// Marks `x1..=x2` of row `y`, clipped to the image.
    fn hline(&mut self, y: i64, x1: i64, x2: i64) {
        if !(0..self.height).contains(&y) {
            return;
        }
        let (x1, x2) = (x1.max(0), x2.min(self.width - 1));
        for x in x1..=x2 {
            self.marks[(y * self.width + x) as usize] = true;
        }
    }
}

const SHIFT: u32 = 16;
const ONE: i64 = 1 << SHIFT;
const HALF: i64 = ONE >> 1;

/// `cvRound`: to nearest, ties to even.
fn cv_round(v: f64) -> i64 {
    v.round_ties_even() as i64
}

/// `cv2.circle(img, centre, radius, colour, thickness=-1)`.
pub fn fill_circle(mask: &mut Mask, cx: i64, cy: i64, radius: i64) {
    // The midpoint circle: for each step down the octant, the four rows it reaches.
    let (mut err, mut dx, mut dy, mut plus, mut minus) = (0i64, radius, 0i64, 1i64, 2 * radius - 1);
    while dx >= dy {
        mask.hline(cy - dy, cx - dx, cx + dx);
        mask.hline(cy + dy, cx - dx, cx + dx);
        mask.hline(cy - dx, cx - dy, cx + dy);
        mask.hline(cy + dx, cx - dy, cx + dy);
        dy += 1;
        err += plus;
        plus += 2;
        if err > 0 {
            err -= minus;
            dx -= 1;
            minus -= 2;
        }
    }
}

/// `cv2.circle(img, centre, radius, colour, thickness)` for `thickness >= 2`.
pub fn stroke_circle(mask: &mut Mask, cx: i64, cy: i64, radius: i64, thickness: i64) {
    let polygon = circle_polygon(cx << SHIFT, cy << SHIFT, radius << SHIFT);
    let mut flags = 3;
    for pair in polygon.windows(2) {
        thick_line(mask, pair[0], pair[1], thickness, flags);
        flags = 2;
    }
}

/// sin of the whole degrees 0..=90 to seven decimals, as OpenCV's table holds them (its
/// digits as written; several have more than an `f32` keeps).
#[allow(clippy::excessive_precision, clippy::approx_constant)]
const SIN_DEGREES: [f32; 91] = [
    0.0000000, 0.0174524, 0.0348995, 0.0523360, 0.0697565, 0.0871557, 0.1045285, 0.1218693,
    0.1391731, 0.1564345, 0.1736482, 0.1908090, 0.2079117, 0.2249511, 0.2419219, 0.2588190,
    0.2756374, 0.2923717, 0.3090170, 0.3255682, 0.3420201, 0.3583679, 0.3746066, 0.3907311,
    0.4067366, 0.4226183, 0.4383711, 0.4539905, 0.4694716, 0.4848096, 0.5000000, 0.5150381,
    0.5299193, 0.5446390, 0.5591929, 0.5735764, 0.5877853, 0.6018150, 0.6156615, 0.6293204,
    0.6427876, 0.6560590, 0.6691306, 0.6819984, 0.6946584, 0.7071068, 0.7193398, 0.7313537,
    0.7431448, 0.7547096, 0.7660444, 0.7771460, 0.7880108, 0.7986355, 0.8090170, 0.8191520,
    0.8290376, 0.8386706, 0.8480481, 0.8571673, 0.8660254, 0.8746197, 0.8829476, 0.8910065,
    0.8987940, 0.9063078, 0.9135455, 0.9205049, 0.9271839, 0.9335804, 0.9396926, 0.9455186,
    0.9510565, 0.9563048, 0.9612617, 0.9659258, 0.9702957, 0.9743701, 0.9781476, 0.9816272,
    0.9848078, 0.9876883, 0.9902681, 0.9925462, 0.9945219, 0.9961947, 0.9975641, 0.9986295,
    0.9993908, 0.9998477, 1.0000000,
];

/// The table's sine of `deg` in 0..=450 (its cosine is the sine of `450 - deg`).
fn sin_deg(deg: i64) -> f64 {
    let d = deg as usize;
    let v = match d {
        0..=90 => SIN_DEGREES[d],
        91..=180 => SIN_DEGREES[180 - d],
        181..=270 => -SIN_DEGREES[d - 180],
        271..=360 => -SIN_DEGREES[360 - d],
        _ => SIN_DEGREES[d - 360],
    };
    f64::from(v)
}

type Point = (i64, i64);

/// The whole circle as OpenCV's `EllipseEx` makes its polygon: vertices in 16.16 fixed
/// point, repeated ones dropped.
fn circle_polygon(cx: i64, cy: i64, r: i64) -> Vec<Point> {
    let whole = (r + HALF) >> SHIFT;
    let step = match whole {
        0..=2 => 90,
        3..=9 => 30,
        10..=14 => 18,
        _ => 5,
    };
    let (cxf, cyf, rf) = (cx as f64, cy as f64, r as f64);
    // The ellipse's angle is 0: its cosine 1 and sine 0 still enter the sums.
    let (alpha, beta) = (sin_deg(90), sin_deg(0));
    let mut out: Vec<Point> = Vec::new();
    let mut i = 0;
    while i < 360 + step {
        let a = i.min(360);
        let (x, y) = (rf * sin_deg(450 - a), rf * sin_deg(a));
        let (px, py) = (cxf + x * alpha - y * beta, cyf + x * beta + y * alpha);
        // To fixed point in two parts: whole pixels, then the rounded remainder.
        let fixed = |v: f64| {
            let whole = cv_round(v / ONE as f64) << SHIFT;
            whole + cv_round(v - whole as f64)
        };
        let p = (fixed(px), fixed(py));
        if out.last() != Some(&p) {
            out.push(p);
        }
        i += step;
    }
    if out.len() == 1 {
        out = vec![(cx, cy); 2];
    }
    out
}

/// OpenCV's `ThickLine` for `thickness >= 2` (16.16 points): the segment's quadrilateral
/// and a disc of radius `thickness / 2` at the ends `flags` names (1 start, 2 end).
fn thick_line(mask: &mut Mask, p0: Point, p1: Point, thickness: i64, flags: u8) {
    let inv = 1.0 / ONE as f64;
    let dx = (p0.0 - p1.0) as f64 * inv;
    let dy = (p1.1 - p0.1) as f64 * inv;
    let len2 = dx * dx + dy * dy;
    let odd = thickness & 1;
    let half = thickness << (SHIFT - 1);
    if len2.abs() > f64::EPSILON {
        let k = (half as f64 + odd as f64 * ONE as f64 * 0.5) / len2.sqrt();
        let (ox, oy) = (cv_round(dy * k), cv_round(dx * k));
        let quad = [
            (p0.0 + ox, p0.1 + oy),
            (p0.0 - ox, p0.1 - oy),
            (p1.0 - ox, p1.1 - oy),
            (p1.0 + ox, p1.1 + oy),
        ];
        fill_convex(mask, &quad);
    }
    let cap_radius = (half + HALF) >> SHIFT;
    for (bit, p) in [(1, p0), (2, p1)] {
        if flags & bit != 0 {
            fill_circle(
                mask,
                (p.0 + HALF) >> SHIFT,
                (p.1 + HALF) >> SHIFT,
                cap_radius,
            );
        }
    }
}

/// OpenCV's `FillConvexPoly` (16.16 points, 8-connected): the outline, then the rows
/// between the two edges walked down from the topmost vertex.
fn fill_convex(mask: &mut Mask, v: &[Point]) {
    let n = v.len();
    let mut prev = v[n - 1];
    let (mut xmin, mut xmax, mut ymin, mut ymax) = (v[0].0, v[0].0, v[0].1, v[0].1);
    let mut top = 0;
    for (i, &p) in v.iter().enumerate() {
        if p.1 < ymin {
            ymin = p.1;
            top = i;
        }
        ymax = ymax.max(p.1);
        xmax = xmax.max(p.0);
        xmin = xmin.min(p.0);
        line_fixed(mask, prev, p);
        prev = p;
    }
    let (xmin, xmax) = ((xmin + HALF) >> SHIFT, (xmax + HALF) >> SHIFT);
    let (ymin, ymax) = ((ymin + HALF) >> SHIFT, (ymax + HALF) >> SHIFT);
    if n < 3 || xmax < 0 || ymax < 0 || xmin >= mask.width || ymin >= mask.height {
        return;
    }
    let ymax = ymax.min(mask.height - 1);

    // Two edges leave the top vertex, one forwards and one backwards round the polygon.
    struct Edge {
        idx: usize,
        step: usize,
        x: i64,
        dx: i64,
        ye: i64,
    }
    let mut edges = [
        Edge {
            idx: top,
            step: 1,
            x: -ONE,
            dx: 0,
            ye: ymin,
        },
        Edge {
            idx: top,
            step: n - 1,
            x: -ONE,
            dx: 0,
            ye: ymin,
        },
    ];
    // Vertices left to take as edge ends, shared by both edges.
    let mut left = n as i64;
    let mut y = ymin;
    loop {
        for e in &mut edges {
            if y < e.ye {
                continue;
            }
            let mut from = e.idx;
            let mut to = (from + e.step) % n;
            loop {
                let more = left > 0;
                left -= 1;
                if !more {
                    break;
                }
                let ty = (v[to].1 + HALF) >> SHIFT;
                if ty > y {
                    let (xs, xe) = (v[from].0, v[to].0);
                    e.ye = ty;
                    e.dx = ((xe - xs) * 2 + (ty - y)) / (2 * (ty - y));
                    e.x = xs;
                    e.idx = to;
                    break;
                }
                from = to;
                to = (to + e.step) % n;
            }
        }
        if left < 0 {
            break;
        }
        if y >= 0 {
            let (l, r) = if edges[0].x > edges[1].x {
                (1, 0)
            } else {
                (0, 1)
            };
            let x1 = (edges[l].x + HALF) >> SHIFT;
            let x2 = (edges[r].x + HALF) >> SHIFT;
            if x2 >= 0 && x1 < mask.width {
                mask.hline(y, x1, x2);
            }
        }
        for e in &mut edges {
            e.x += e.dx;
        }
        y += 1;
        if y > ymax {
            break;
        }
    }
}

/// OpenCV's `clipLine` on a `width × height` area: false when the segment misses it.
fn clip_line(width: i64, height: i64, p1: &mut Point, p2: &mut Point) -> bool {
    let (right, bottom) = (width - 1, height - 1);
    if width <= 0 || height <= 0 {
        return false;
    }
    let code = |p: &Point| {
        i32::from(p.0 < 0)
            + i32::from(p.0 > right) * 2
            + i32::from(p.1 < 0) * 4
            + i32::from(p.1 > bottom) * 8
    };
    let (mut c1, mut c2) = (code(p1), code(p2));
    if (c1 & c2) == 0 && (c1 | c2) != 0 {
        if c1 & 12 != 0 {
            let a = if c1 < 8 { 0 } else { bottom };
            p1.0 += (a - p1.1) * (p2.0 - p1.0) / (p2.1 - p1.1);
            p1.1 = a;
            c1 = i32::from(p1.0 < 0) + i32::from(p1.0 > right) * 2;
        }
        if c2 & 12 != 0 {
            let a = if c2 < 8 { 0 } else { bottom };
            p2.0 += (a - p2.1) * (p2.0 - p1.0) / (p2.1 - p1.1);
            p2.1 = a;
            c2 = i32::from(p2.0 < 0) + i32::from(p2.0 > right) * 2;
        }
        if (c1 & c2) == 0 && (c1 | c2) != 0 {
            if c1 != 0 {
                let a = if c1 == 1 { 0 } else { right };
                p1.1 += (a - p1.0) * (p2.1 - p1.1) / (p2.0 - p1.0);
                p1.0 = a;
                c1 = 0;
            }
            if c2 != 0 {
                let a = if c2 == 1 { 0 } else { right };
                p2.1 += (a - p2.0) * (p2.1 - p1.1) / (p2.0 - p1.0);
                p2.0 = a;
                c2 = 0;
            }
        }
    }
    (c1 | c2) == 0
}

/// OpenCV's `Line2`: an 8-connected line between 16.16 points, stepping one pixel along
/// the longer axis.
fn line_fixed(mask: &mut Mask, mut p1: Point, mut p2: Point) {
    if !clip_line(mask.width << SHIFT, mask.height << SHIFT, &mut p1, &mut p2) {
        return;
    }
    let (dx, dy) = (p2.0 - p1.0, p2.1 - p1.1);
    let (ax, ay) = (dx.abs(), dy.abs());
    let x_major = ax > ay;
    // Walk in increasing order of the major axis.
    if (x_major && dx < 0) || (!x_major && dy < 0) {
        std::mem::swap(&mut p1, &mut p2);
    }
    mask.set((p2.0 + HALF) >> SHIFT, (p2.1 + HALF) >> SHIFT);
    if x_major {
        let step = ((p2.1 - p1.1) << SHIFT) / (ax | 1);
        let mut count = (p2.0 - p1.0) >> SHIFT;
        let (mut x, mut y) = ((p1.0 + HALF) >> SHIFT, p1.1 + HALF);
        while count >= 0 {
            mask.set(x, y >> SHIFT);
            x += 1;
            y += step;
            count -= 1;
        }
    } else {
        let step = ((p2.0 - p1.0) << SHIFT) / (ay | 1);
        let mut count = (p2.1 - p1.1) >> SHIFT;
        let (mut x, mut y) = (p1.0 + HALF, (p1.1 + HALF) >> SHIFT);
        while count >= 0 {
            mask.set(x >> SHIFT, y);
            x += step;
            y += 1;
            count -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(mask: &Mask) -> Vec<String> {
        (0..mask.height as usize)
            .map(|y| {
                (0..mask.width as usize)
                    .map(|x| if mask.get(x, y) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    /// Drawn by `cv2.circle` (opencv-python 4.11.0.86) on zeroed masks.
    #[test]
    fn circles_match_opencv() {
        let mut m = Mask::new(9, 9);
        fill_circle(&mut m, 4, 4, 3);
        let disc = [
            ".........",
            "....#....",
            "..#####..",
            "..#####..",
            ".#######.",
            "..#####..",
            "..#####..",
            "....#....",
            ".........",
        ];
        assert_eq!(rows(&m), disc);
        let mut m = Mask::new(11, 11);
        stroke_circle(&mut m, 5, 5, 3, 2);
        let ring = [
            "...........",
            "...#####...",
            "...######..",
            ".#########.",
            ".###...###.",
            ".###...###.",
            ".###...###.",
            ".#########.",
            "..#######..",
            "...#####...",
            "...........",
        ];
        assert_eq!(rows(&m), ring);
        // Clipped at the top right corner.
        let mut m = Mask::new(8, 6);
        stroke_circle(&mut m, 6, 1, 4, 2);
        let clipped = [
            ".###....", ".###....", ".###....", "..###...", "..######", "...#####",
        ];
        assert_eq!(rows(&m), clipped);
    }
}
