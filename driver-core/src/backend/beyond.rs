//! Pictures of a part of the page beyond Chrome's viewport, which the
//! page cannot notice.
//!
//! Chrome pictures beyond its viewport only by growing it for the moment
//! (`captureBeyondViewport`: the page hears a resize), and a screenshot
//! clipped below the fold comes back blank. But the compositor keeps, for
//! each of its layers, what the page painted into it, recorded well beyond
//! the viewport (4,000 px either way, as Chromium culls it), and DevTools'
//! `LayerTree` domain replays that record into a picture
//! (`LayerTree.makeSnapshot`, `replaySnapshot`): no resize, no scroll, no
//! observer's callback (checked with a page that records them). What the
//! page paints into its document's own layer, everything not composited
//! apart, is there with the effects and covers painted in that layer.
//!
//! A part of the page in view is cut from the viewport's frame. Beyond it,
//! the document's layer is replayed; where another layer lies (a box
//! composited apart: a fixed bar, a `will-change`, a video, a backdrop
//! filter), whose opacity, blend and clip DevTools does not tell, the
//! picture is left transparent: unknown, which the judge takes as a part it
//! cannot see, so what lies there is judged by its style. So is all of it
//! beyond the viewport where the layers are not told in time, turned,
//! scaled, or too large to replay within [`MOST_REPLAYED`].

use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use super::devtools::{names, DevToolsSocket, Event};
use crate::{DriverError, Result, MARKER_SIZE};

/// The most pixels a layer replayed may hold (a page about six viewports
/// long): a replay is of the whole layer, about 12 ms a million pixels
/// here, so a longer page is judged beyond its viewport by style.
pub const MOST_REPLAYED: u64 = 6_000_000;

/// How far beyond the viewport's edges a layer's record is trusted to hold
/// what is painted: Chromium records 4,000 px beyond what shows, and
/// records afresh once the page scrolled 512 px from where it last did.
const RECORDED_BEYOND: f64 = 3_000.0;

/// How long a probe waits for the layers once its picture came.
const LAYERS_PATIENCE: std::time::Duration = std::time::Duration::from_millis(300);

/// One layer as `LayerTree.layerTreeDidChange` lists it: its id, where it
/// lies on screen (its bounds, CSS pixels of the top viewport), whether
/// only moved there (no turn, no scale), and whether it paints.
#[derive(Debug, Clone, PartialEq)]
struct Layer {
    id: String,
    rect: [f64; 4],
    moved_only: bool,
    draws: bool,
}

impl Layer {
    /// A layer of the list; `None` where its transform puts some of it
    /// behind the eye (its place on screen cannot be told).
    fn of(value: &Value) -> Option<Self> {
        let at = |key: &str| value[key].as_f64().unwrap_or_default();
        let (width, height) = (at("width"), at("height"));
        let (ox, oy) = (at("offsetX"), at("offsetY"));
        let matrix: Vec<f64> = value["transform"]
            .as_array()
            .map(|values| values.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_else(|| {
                vec![
                    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
                ]
            });
        if matrix.len() != 16 {
            return None;
        }
        // Column-major: x' = a x + c y + e, y' = b x + d y + f, and the
        // depth a perspective divides by, w = p x + q y + s (a card turned
        // in 3D: its place is its corners seen in that perspective).
        let (a, b, c, d, e, f) = (
            matrix[0], matrix[1], matrix[4], matrix[5], matrix[12], matrix[13],
        );
        let (p, q, s) = (matrix[3], matrix[7], matrix[15]);
        let corners = [
            (ox, oy),
            (ox + width, oy),
            (ox, oy + height),
            (ox + width, oy + height),
        ]
        .map(|(x, y)| (a * x + c * y + e, b * x + d * y + f, p * x + q * y + s));
        if corners.iter().any(|&(_, _, w)| w <= f64::EPSILON) {
            return None;
        }
        let (mut left, mut top) = (f64::MAX, f64::MAX);
        let (mut right, mut bottom) = (f64::MIN, f64::MIN);
        for (x, y, w) in corners {
            let (x, y) = (x / w, y / w);
            (left, top) = (left.min(x), top.min(y));
            (right, bottom) = (right.max(x), bottom.max(y));
        }
        Some(Self {
            id: value["layerId"].as_str()?.to_owned(),
            rect: [left, top, right - left, bottom - top],
            moved_only: a == 1.0
                && d == 1.0
                && b == 0.0
                && c == 0.0
                && p == 0.0
                && q == 0.0
                && s == 1.0,
            draws: value["drawsContent"] == Value::Bool(true),
        })
    }
}

/// The layers of a tab: the document's own (the largest that paints and is
/// only moved), and every other's place on screen. `None` for the
/// document's where no layer can be replayed.
#[derive(Debug, Clone, PartialEq)]
struct Layers {
    document: Option<Layer>,
    others: Vec<[f64; 4]>,
    /// Some layer's place is not known (a transform that puts some of it
    /// behind the eye).
    unplaced: bool,
}

impl Layers {
    fn of(list: &[Value]) -> Self {
        let mut unplaced = false;
        let mut layers = Vec::with_capacity(list.len());
        for value in list {
            match Layer::of(value) {
                Some(layer) => layers.push(layer),
                None => unplaced = true,
            }
        }
        let document = layers
            .iter()
            .filter(|layer| layer.draws && layer.moved_only)
            .max_by(|a, b| (a.rect[2] * a.rect[3]).total_cmp(&(b.rect[2] * b.rect[3])))
            .filter(|layer| layer.rect[2] * layer.rect[3] <= MOST_REPLAYED as f64)
            .cloned();
        let others = layers
            .into_iter()
            .filter(|layer| Some(&layer.id) != document.as_ref().map(|document| &document.id))
            .filter(|layer| layer.rect[2] > 0.0 && layer.rect[3] > 0.0)
            .map(|layer| layer.rect)
            .collect();
        Self {
            document,
            others,
            unplaced,
        }
    }
}

/// A probe's pictures of `area` (x, y, width, height in the top
/// viewport's CSS pixels), made of each step's frame of the viewport and,
/// beyond it, the document's layer replayed.
pub struct Beyond {
    area: [i32; 4],
    /// The viewport's size in CSS pixels.
    viewport: (f64, f64),
    /// The area reaches beyond the viewport.
    reaches: bool,
    /// The layers heard, where the area reaches beyond the viewport.
    events: Option<UnboundedReceiver<std::sync::Arc<Event>>>,
    layers: Option<Layers>,
    /// The frames' boxes, in the viewport's CSS pixels.
    frames: Vec<[f64; 4]>,
    /// The probe waited for the layers once (it waits no more).
    waited: bool,
}

impl Beyond {
    /// Pictures of `area` of the tab whose DevTools session is `tab`, its
    /// viewport and its document (width, height) CSS pixels, the boxes of
    /// its frames `frames` (x, y, width, height in the viewport): where the
    /// area reaches beyond the viewport of a document small enough to
    /// replay, its layers are heard from now on (a browser that will not
    /// tell them, as one that will not replay them, leaves the part beyond
    /// the viewport unknown, not the probe failed). Beyond the viewport,
    /// what a frame shows is unknown: its page is no part of the
    /// document's layer, and may not be a layer of this renderer at all.
    pub async fn start(
        socket: &DevToolsSocket,
        tab: &str,
        area: [i32; 4],
        (viewport, document): ((f64, f64), (f64, f64)),
        frames: Vec<[f64; 4]>,
    ) -> Self {
        let [_, y, _, height] = area;
        let reaches = f64::from(y) < 0.0 || f64::from(y + height) > viewport.1;
        let replayable = document.0 * document.1 <= MOST_REPLAYED as f64;
        let events = if reaches && replayable {
            let events = socket.events();
            socket
                .call(Some(tab), names::LAYER_TREE_ENABLE, json!({}))
                .await
                .ok()
                .map(|_| events)
        } else {
            None
        };
        Self {
            area,
            viewport,
            reaches,
            events,
            layers: None,
            frames,
            waited: false,
        }
    }

    /// Whether the area reaches beyond the viewport: then every picture is
    /// a frame drawn afresh and proved by its marker (it tells the layers,
    /// and a step's picture waits on the making of the last one's, while
    /// which the frame after the step's scripts may come and go).
    pub fn reaches(&self) -> bool {
        self.reaches
    }

    /// Stops hearing the layers (they cost the renderer a list each frame).
    pub async fn stop(self, socket: &DevToolsSocket, tab: &str) {
        if self.events.is_some() {
            let _ = socket
                .send(Some(tab), names::LAYER_TREE_DISABLE, json!({}))
                .await;
        }
    }

    /// Takes in the layers the tab told of since last asked; waits a little
    /// for a first list where none came yet, once.
    async fn hear(&mut self, tab: &str) {
        let Some(events) = self.events.as_mut() else {
            return;
        };
        let layers_of = |event: &Event| {
            (event.session.as_deref() == Some(tab) && event.method == names::LAYER_TREE_DID_CHANGE)
                .then(|| {
                    event.params["layers"]
                        .as_array()
                        .map(|list| Layers::of(list))
                })
                .flatten()
        };
        while let Ok(event) = events.try_recv() {
            if let Some(layers) = layers_of(&event) {
                self.layers = Some(layers);
            }
        }
        if self.layers.is_some() || self.waited {
            return;
        }
        self.waited = true;
        let heard = tokio::time::timeout(LAYERS_PATIENCE, async {
            while let Some(event) = events.recv().await {
                if let Some(layers) = layers_of(&event) {
                    return Some(layers);
                }
            }
            None
        })
        .await;
        self.layers = heard.ok().flatten();
    }

    /// The picture of the area at the moment `frame` (a PNG of the
    /// viewport) was drawn: in view cut from it, beyond it the document's
    /// layer as it is recorded now (the frame came after what the step
    /// changed was painted), unknown where that cannot say.
    pub async fn picture(
        &mut self,
        socket: &DevToolsSocket,
        tab: &str,
        frame: &[u8],
    ) -> Result<Vec<u8>> {
        let frame = Rgba::decode(frame, None)?;
        let [x, y, width, height] = self.area.map(f64::from);
        // The frame's pixels a CSS pixel.
        let scale = frame.width as f64 / self.viewport.0.max(1.0);
        let (columns, rows) = (
            (width * scale).round() as usize,
            (height * scale).round() as usize,
        );
        let mut out = Rgba::transparent(columns, rows);
        // Rows in view, from the frame (but for the marker a marked probe
        // draws at its top left, which is no page's).
        for row in 0..rows {
            let frame_row = (y * scale + row as f64).floor();
            if frame_row < 0.0 || frame_row as usize >= frame.height {
                continue;
            }
            let frame_row = frame_row as usize;
            let first = (x * scale).floor();
            let from = (-first).max(0.0) as usize;
            let to = columns.min((frame.width as f64 - first).max(0.0) as usize);
            if from < to {
                let start = (first + from as f64) as usize;
                out.copy_row(row, from, &frame, frame_row, start, to - from);
            }
            if frame_row < MARKER_SIZE as usize {
                for column in from..to.min(from + MARKER_SIZE as usize) {
                    if (first + column as f64) < f64::from(MARKER_SIZE) {
                        out.set(column, row, [0, 0, 0, 0]);
                    }
                }
            }
        }
        // Beyond it, the document's layer, only at one pixel a CSS pixel.
        self.hear(tab).await;
        let Some(layers) = self.layers.clone() else {
            return out.encode();
        };
        let (Some(document), false, true) = (
            &layers.document,
            layers.unplaced,
            (scale - 1.0).abs() < 0.01,
        ) else {
            return out.encode();
        };
        let beyond = |css_y: f64| css_y < 0.0 || css_y >= self.viewport.1;
        let trusted =
            |css_y: f64| css_y >= -RECORDED_BEYOND && css_y < self.viewport.1 + RECORDED_BEYOND;
        let [left, top, ..] = document.rect;
        let wanted = (0..rows)
            .map(|row| y + row as f64)
            .filter(|&css_y| beyond(css_y) && trusted(css_y))
            .map(|css_y| css_y - top)
            .filter(|&layer_y| layer_y >= 0.0)
            .map(|layer_y| layer_y as usize);
        let (Some(first), Some(last)) = (wanted.clone().min(), wanted.max()) else {
            return out.encode();
        };
        // (A layer that will not replay leaves it all unknown.)
        let Ok(replayed) = replay(socket, tab, &document.id, first..last + 1).await else {
            return out.encode();
        };
        for row in 0..rows {
            let css_y = y + row as f64;
            if !beyond(css_y) || !trusted(css_y) {
                continue;
            }
            let layer_y = css_y - top;
            if layer_y < 0.0
                || (layer_y as usize) < first
                || layer_y as usize >= first + replayed.height
            {
                continue;
            }
            for column in 0..columns {
                let layer_x = x + column as f64 - left;
                if layer_x >= 0.0 && (layer_x as usize) < replayed.width {
                    out.set(
                        column,
                        row,
                        replayed.get(layer_x as usize, layer_y as usize - first),
                    );
                }
            }
        }
        // What another layer may lie over or under is unknown, and what a
        // frame shows.
        for &[lx, ly, lw, lh] in layers.others.iter().chain(&self.frames) {
            for row in 0..rows {
                let css_y = y + row as f64;
                if !beyond(css_y) || css_y < ly || css_y >= ly + lh {
                    continue;
                }
                for column in 0..columns {
                    let css_x = x + column as f64;
                    if css_x >= lx && css_x < lx + lw {
                        out.set(column, row, [0, 0, 0, 0]);
                    }
                }
            }
        }
        out.encode()
    }
}

/// The rows `rows` of a layer's record replayed (the replay is of the
/// whole layer; the rest is not kept).
async fn replay(
    socket: &DevToolsSocket,
    tab: &str,
    layer: &str,
    rows: std::ops::Range<usize>,
) -> Result<Rgba> {
    let snapshot = socket
        .call(
            Some(tab),
            names::LAYER_TREE_MAKE_SNAPSHOT,
            json!({ "layerId": layer }),
        )
        .await?;
    let Some(id) = snapshot["snapshotId"].as_str() else {
        return Err(DriverError::Protocol(format!(
            "LayerTree.makeSnapshot answered {snapshot}"
        )));
    };
    let replayed = socket
        .call(
            Some(tab),
            names::LAYER_TREE_REPLAY_SNAPSHOT,
            json!({ "snapshotId": id }),
        )
        .await;
    let _ = socket
        .send(
            Some(tab),
            names::LAYER_TREE_RELEASE_SNAPSHOT,
            json!({ "snapshotId": id }),
        )
        .await;
    let replayed = replayed?;
    let url = replayed["dataURL"].as_str().unwrap_or_default();
    let data = url
        .split_once("base64,")
        .map(|(_, data)| data)
        .unwrap_or_default();
    use base64::Engine;
    let png = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|error| DriverError::Protocol(format!("the replay is not base64: {error}")))?;
    Rgba::decode(&png, Some(rows))
}

/// A picture as RGBA, eight bits a sample.
struct Rgba {
    width: usize,
    height: usize,
    samples: Vec<u8>,
}

impl Rgba {
    fn transparent(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            samples: vec![0; width * height * 4],
        }
    }

    /// A PNG decoded: all its rows, or only `rows` of them.
    fn decode(png: &[u8], rows: Option<std::ops::Range<usize>>) -> Result<Self> {
        let bad = |error: png::DecodingError| {
            DriverError::Protocol(format!("a picture is no PNG: {error}"))
        };
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(bad)?;
        let (width, height) = {
            let info = reader.info();
            (info.width as usize, info.height as usize)
        };
        let channels = reader.output_color_type().0.samples();
        let rows = rows.unwrap_or(0..height);
        let kept = rows.end.min(height).saturating_sub(rows.start);
        let mut picture = Self::transparent(width, kept);
        let mut index = 0;
        while let Some(row) = reader.next_row().map_err(bad)? {
            if index >= rows.end {
                break;
            }
            if index >= rows.start {
                let data = row.data();
                for column in 0..width {
                    let pixel = &data[column * channels..(column + 1) * channels];
                    let rgba = match channels {
                        1 => [pixel[0], pixel[0], pixel[0], 255],
                        2 => [pixel[0], pixel[0], pixel[0], pixel[1]],
                        3 => [pixel[0], pixel[1], pixel[2], 255],
                        _ => [pixel[0], pixel[1], pixel[2], pixel[3]],
                    };
                    picture.set(column, index - rows.start, rgba);
                }
            }
            index += 1;
        }
        Ok(picture)
    }

    fn get(&self, column: usize, row: usize) -> [u8; 4] {
        let at = (row * self.width + column) * 4;
        [
            self.samples[at],
            self.samples[at + 1],
            self.samples[at + 2],
            self.samples[at + 3],
        ]
    }

    /// Copies `count` pixels of `from`'s row `from_row` from its column
    /// `from_column` into this one's row `row` at `column`.
    fn copy_row(
        &mut self,
        row: usize,
        column: usize,
        from: &Rgba,
        from_row: usize,
        from_column: usize,
        count: usize,
    ) {
        let at = (row * self.width + column) * 4;
        let source = (from_row * from.width + from_column) * 4;
        self.samples[at..at + count * 4].copy_from_slice(&from.samples[source..source + count * 4]);
    }

    fn set(&mut self, column: usize, row: usize, rgba: [u8; 4]) {
        let at = (row * self.width + column) * 4;
        self.samples[at..at + 4].copy_from_slice(&rgba);
    }

    fn encode(&self) -> Result<Vec<u8>> {
        let bad = |error: png::EncodingError| {
            DriverError::Protocol(format!("a picture could not be written: {error}"))
        };
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, self.width as u32, self.height as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().map_err(bad)?;
        writer.write_image_data(&self.samples).map_err(bad)?;
        writer.finish().map_err(bad)?;
        Ok(png)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(id: &str, rect: [f64; 4], transform: Option<[f64; 16]>, draws: bool) -> Value {
        json!({ "layerId": id, "offsetX": 0, "offsetY": 0, "width": rect[2], "height": rect[3],
                "transform": transform.map(|t| t.to_vec()), "drawsContent": draws })
    }

    fn moved(x: f64, y: f64) -> Option<[f64; 16]> {
        Some([
            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, 0.0, 1.0,
        ])
    }

    #[test]
    fn the_document_is_the_largest_layer_that_paints_and_only_moves() {
        // As Chromium lists a page scrolled by 500 px: its root, viewport
        // holders, the document's layer moved up, a fixed bar, a box of
        // its own below the fold, the scroll bar.
        let list = [
            layer("6", [0.0, 0.0, 0.0, 0.0], None, true),
            layer("7", [0.0, 0.0, 1265.0, 713.0], None, false),
            layer("8", [0.0, 0.0, 1265.0, 4329.0], moved(0.0, -500.0), true),
            layer("9", [0.0, 0.0, 100.0, 50.0], moved(1165.0, 0.0), true),
            layer("10", [0.0, 0.0, 1265.0, 23.0], moved(0.0, 1723.0), true),
        ];
        let layers = Layers::of(&list);
        let document = layers.document.expect("a document layer");
        assert_eq!(document.id, "8");
        assert_eq!(document.rect, [0.0, -500.0, 1265.0, 4329.0]);
        assert!(layers.others.contains(&[0.0, 1723.0, 1265.0, 23.0]));
        assert!(!layers.unplaced);
    }

    #[test]
    fn a_layer_too_large_or_turned_is_not_replayed() {
        let tall = [layer("8", [0.0, 0.0, 1265.0, 90_000.0], None, true)];
        assert_eq!(Layers::of(&tall).document, None);
        let turned = [layer(
            "8",
            [0.0, 0.0, 1265.0, 2000.0],
            Some([
                0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ]),
            true,
        )];
        let layers = Layers::of(&turned);
        assert_eq!(layers.document, None);
        // Its place is its bounds turned: 2,000 px wide, to the left.
        assert_eq!(layers.others, vec![[-2000.0, 0.0, 2000.0, 1265.0]]);
        // Turned in 3D, in perspective: its corners seen so (w = 1 + x/1000).
        let deep = [layer(
            "8",
            [0.0, 0.0, 100.0, 100.0],
            Some([
                1.0, 0.0, 0.0, 0.001, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ]),
            true,
        )];
        let layers = Layers::of(&deep);
        assert!(!layers.unplaced);
        assert_eq!(layers.document, None);
        let [x, y, w, h] = layers.others[0];
        assert_eq!((x, y), (0.0, 0.0));
        assert!((w - 100.0 / 1.1).abs() < 1e-9 && (h - 100.0).abs() < 1e-9);
        // Partly behind the eye: no place can be told.
        let behind = [layer(
            "8",
            [0.0, 0.0, 100.0, 100.0],
            Some([
                1.0, 0.0, 0.0, -0.02, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ]),
            true,
        )];
        assert!(Layers::of(&behind).unplaced);
    }
}
