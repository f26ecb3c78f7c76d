//! glTF 2.0 models, read as trimesh loads them for Mental Rotation 3D (Objaverse): a
//! binary `.glb`, or a `.gltf` whose buffers are `data:` URIs or files beside it. Each
//! triangle primitive becomes one part, its vertices placed by its node's world transform
//! (the scene's node tree flattened, as `graph.to_scene()` does), with its material's
//! metallic-roughness factors. Textures, cameras, skins and morph targets are not read
//! (docs/visgym.md, "Mental Rotation 3D (Objaverse)"); compressed meshes (Draco,
//! meshopt) are refused by name.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::{decode_rgb, ImageFile};

/// A material's factors as pyrender shades them (linear RGBA in 0..1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    pub base_color: [f64; 4],
    pub metallic: f64,
    pub roughness: f64,
}

impl Default for Material {
    /// glTF's defaults: white, fully metallic, fully rough.
    fn default() -> Self {
        Material {
            base_color: [1.0; 4],
            metallic: 1.0,
            roughness: 1.0,
        }
    }
}

/// One triangle primitive in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub positions: Vec<[f64; 3]>,
    /// `TEXCOORD_0`, when given: trimesh keeps vertices apart whose coordinates differ.
    pub uvs: Option<Vec<[f32; 2]>>,
    pub triangles: Vec<[u32; 3]>,
    pub material: Material,
}

/// A model's parts, in the order the scene's nodes list them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    pub parts: Vec<Part>,
}

/// Why a file is not a model we can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GltfError(pub String);

impl fmt::Display for GltfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GltfError {}

fn err<T>(msg: impl Into<String>) -> Result<T, GltfError> {
    Err(GltfError(msg.into()))
}

type Mat4 = [[f64; 4]; 4];

const IDENTITY: Mat4 = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// Accessors longer than this are refused (16 M vertices is far beyond a model we draw).
const MAX_ELEMENTS: usize = 1 << 24;

/// Node trees deeper than this are refused (a cycle, or a hostile file).
const MAX_DEPTH: usize = 64;

/// Reads a `.glb` or `.gltf` file. `beside` gives the bytes of a file the model names by
/// a relative URI (a `.gltf`'s `.bin` buffers), relative to the model's folder.
pub fn read_model(
    bytes: &[u8],
    beside: &dyn Fn(&str) -> Option<Arc<[u8]>>,
) -> Result<Model, GltfError> {
    let (json, blob) = if bytes.starts_with(b"glTF") {
        split_glb(bytes)?
    } else {
        (bytes, None)
    };
    let doc: Value = serde_json::from_slice(json)
        .map_err(|e| GltfError(format!("the glTF JSON does not parse: {e}")))?;
    if let Some(ext) = array(&doc, "extensionsRequired").first() {
        let name = ext.as_str().unwrap_or_default();
        return err(format!(
            "the model requires the glTF extension {name}, which is not read here"
        ));
    }
    let buffers = array(&doc, "buffers")
        .iter()
        .enumerate()
        .map(|(i, b)| buffer(b, i, blob, beside))
        .collect::<Result<Vec<_>, _>>()?;
    let reader = Reader {
        doc: &doc,
        buffers,
        beside,
    };
    let mut model = Model::default();
    let scene_nodes = match doc.get("scenes").and_then(Value::as_array) {
        Some(scenes) if !scenes.is_empty() => {
            let i = doc.get("scene").and_then(Value::as_u64).unwrap_or(0) as usize;
            let scene = scenes
                .get(i)
                .ok_or_else(|| GltfError(format!("scene {i} does not exist")))?;
            indices(scene, "nodes")?
        }
        // No scene: every node that is nobody's child is a root.
        _ => {
            let nodes = array(&doc, "nodes");
            let mut is_child = vec![false; nodes.len()];
            for n in nodes {
                for c in indices(n, "children")? {
                    if let Some(slot) = is_child.get_mut(c) {
                        *slot = true;
                    }
                }
            }
            (0..nodes.len()).filter(|&i| !is_child[i]).collect()
        }
    };
    for root in scene_nodes {
        reader.node(root, &IDENTITY, 0, &mut model)?;
    }
    Ok(model)
}

/// The JSON chunk and the binary chunk of a `.glb`.
fn split_glb(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), GltfError> {
    let u32_at = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    if u32_at(4) != Some(2) {
        return err("only glTF 2.0 binaries are read");
    }
    let total = u32_at(8).unwrap_or(0).min(bytes.len());
    let (mut at, mut json, mut blob) = (12usize, None, None);
    while at + 8 <= total {
        let (Some(len), Some(kind)) = (u32_at(at), u32_at(at + 4)) else {
            break;
        };
        let body = bytes
            .get(at + 8..at + 8 + len)
            .ok_or_else(|| GltfError("a glb chunk runs past the end of the file".into()))?;
        match kind {
            0x4E4F_534A if json.is_none() => json = Some(body),
            0x004E_4942 if blob.is_none() => blob = Some(body),
            _ => {}
        }
        at += 8 + len;
    }
    let json = json.ok_or_else(|| GltfError("the glb has no JSON chunk".into()))?;
    Ok((json, blob))
}

fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn indices(v: &Value, key: &str) -> Result<Vec<usize>, GltfError> {
    array(v, key)
        .iter()
        .map(|i| {
            i.as_u64()
                .map(|i| i as usize)
                .ok_or_else(|| GltfError(format!("{key} holds {i}, not an index")))
        })
        .collect()
}

fn index(v: &Value, key: &str) -> Result<Option<usize>, GltfError> {
    match v.get(key) {
        None => Ok(None),
        Some(i) => i
            .as_u64()
            .map(|i| Some(i as usize))
            .ok_or_else(|| GltfError(format!("{key} is {i}, not an index"))),
    }
}

fn numbers<const N: usize>(v: &Value, key: &str, default: [f64; N]) -> Result<[f64; N], GltfError> {
    let Some(a) = v.get(key) else {
        return Ok(default);
    };
    let a = a
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| GltfError(format!("{key} must be {N} numbers")))?;
    let mut out = default;
    for (slot, x) in out.iter_mut().zip(a) {
        *slot = x
            .as_f64()
            .ok_or_else(|| GltfError(format!("{key} must be {N} numbers")))?;
    }
    Ok(out)
}

fn buffer(
    b: &Value,
    i: usize,
    blob: Option<&[u8]>,
    beside: &dyn Fn(&str) -> Option<Arc<[u8]>>,
) -> Result<Arc<[u8]>, GltfError> {
    match b.get("uri").and_then(Value::as_str) {
        None => blob.map(Arc::from).ok_or_else(|| {
            GltfError(format!(
                "buffer {i} has no URI and the file no binary chunk"
            ))
        }),
        Some(uri) if uri.starts_with("data:") => {
            let (head, data) = uri
                .split_once(',')
                .ok_or_else(|| GltfError(format!("buffer {i}'s data URI has no comma")))?;
            if !head.ends_with(";base64") {
                return err(format!("buffer {i}'s data URI is not base64"));
            }
            base64(data)
                .map(Arc::from)
                .ok_or_else(|| GltfError(format!("buffer {i}'s data URI is not valid base64")))
        }
        Some(uri) => beside(&percent_decoded(uri)).ok_or_else(|| {
            GltfError(format!(
                "buffer {i} names {uri}, which is not beside the model"
            ))
        }),
    }
}

/// A relative URI's `%XX` escapes decoded.
fn percent_decoded(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

struct Reader<'a> {
    doc: &'a Value,
    buffers: Vec<Arc<[u8]>>,
    beside: &'a dyn Fn(&str) -> Option<Arc<[u8]>>,
}

/// The sRGB transfer function's inverse, as pyrender's shader applies it to textures.
fn srgb_to_linear(c: f64) -> f64 {
    if c < 0.04045 {
        c / 12.92
    } else {
        libm::pow((c + 0.055) / 1.055, 2.4)
    }
}

fn mat_mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..4).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    out
}

/// A node's local transform: `matrix` (column-major), or translation · rotation · scale.
fn local_transform(node: &Value) -> Result<Mat4, GltfError> {
    if node.get("matrix").is_some() {
        let m: [f64; 16] = numbers(node, "matrix", [0.0; 16])?;
        let mut out = IDENTITY;
        for (c, col) in m.chunks(4).enumerate() {
            for (r, &v) in col.iter().enumerate() {
                out[r][c] = v;
            }
        }
        return Ok(out);
    }
    let [tx, ty, tz] = numbers(node, "translation", [0.0; 3])?;
    let [x, y, z, w] = numbers(node, "rotation", [0.0, 0.0, 0.0, 1.0])?;
    let [sx, sy, sz] = numbers(node, "scale", [1.0; 3])?;
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let s = [sx, sy, sz];
    let t = [tx, ty, tz];
    let mut out = IDENTITY;
    for i in 0..3 {
        for j in 0..3 {
            out[i][j] = r[i][j] * s[j];
        }
        out[i][3] = t[i];
    }
    Ok(out)
}

impl Reader<'_> {
    fn node(
        &self,
        i: usize,
        parent: &Mat4,
        depth: usize,
        model: &mut Model,
    ) -> Result<(), GltfError> {
        if depth > MAX_DEPTH {
            return err("the node tree is deeper than 64 levels (a cycle?)");
        }
        let node = array(self.doc, "nodes")
            .get(i)
            .ok_or_else(|| GltfError(format!("node {i} does not exist")))?;
        let world = mat_mul(parent, &local_transform(node)?);
        if let Some(m) = index(node, "mesh")? {
            let mesh = array(self.doc, "meshes")
                .get(m)
                .ok_or_else(|| GltfError(format!("mesh {m} does not exist")))?;
            for p in array(mesh, "primitives") {
                if let Some(part) = self.primitive(p, &world)? {
                    model.parts.push(part);
                }
            }
        }
        for c in indices(node, "children")? {
            self.node(c, &world, depth + 1, model)?;
        }
        Ok(())
    }

    /// A triangle primitive as a part; other modes (points, lines, strips) are skipped, as
    /// the reference's renderer keeps only triangle meshes.
    fn primitive(&self, p: &Value, world: &Mat4) -> Result<Option<Part>, GltfError> {
        if p.get("mode").and_then(Value::as_u64).unwrap_or(4) != 4 {
            return Ok(None);
        }
        let attributes = p
            .get("attributes")
            .ok_or_else(|| GltfError("a primitive has no attributes".into()))?;
        let Some(pos) = index(attributes, "POSITION")? else {
            return Ok(None);
        };
        let raw = self.accessor(pos, 3)?;
        let positions: Vec<[f64; 3]> = raw
            .chunks_exact(3)
            .map(|v| {
                let mut out = [0.0; 3];
                for (r, slot) in out.iter_mut().enumerate() {
                    *slot =
                        world[r][0] * v[0] + world[r][1] * v[1] + world[r][2] * v[2] + world[r][3];
                }
                out
            })
            .collect();
        let uvs = match index(attributes, "TEXCOORD_0")? {
            Some(t) => {
                let raw = self.accessor(t, 2)?;
                Some(
                    raw.chunks_exact(2)
                        .map(|v| [v[0] as f32, v[1] as f32])
                        .collect(),
                )
            }
            None => None,
        };
        let flat: Vec<u32> = match index(p, "indices")? {
            Some(a) => self.accessor(a, 1)?.into_iter().map(|v| v as u32).collect(),
            None => (0..positions.len() as u32).collect(),
        };
        let n = positions.len() as u32;
        if flat.iter().any(|&v| v >= n) {
            return err("a primitive's index points past its vertices");
        }
        let triangles = flat.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        let material = match index(p, "material")? {
            Some(m) => self.material(m)?,
            None => Material::default(),
        };
        Ok(Some(Part {
            positions,
            uvs,
            triangles,
            material,
        }))
    }

    fn material(&self, m: usize) -> Result<Material, GltfError> {
        let mat = array(self.doc, "materials")
            .get(m)
            .ok_or_else(|| GltfError(format!("material {m} does not exist")))?;
        let Some(pbr) = mat.get("pbrMetallicRoughness") else {
            return Ok(Material::default());
        };
        let mut base_color = numbers(pbr, "baseColorFactor", [1.0; 4])?;
        // trimesh keeps a material's colour as 8-bit RGBA.
        for c in &mut base_color {
            *c = (c.clamp(0.0, 1.0) * 255.0).round() / 255.0;
        }
        if let Some(t) = pbr.get("baseColorTexture") {
            let mean = self.texture_mean(t)?;
            for (c, m) in base_color.iter_mut().zip(mean) {
                *c *= m;
            }
        }
        let factor = |key: &str| -> Result<f64, GltfError> {
            match pbr.get(key) {
                None => Ok(1.0),
                Some(v) => v
                    .as_f64()
                    .ok_or_else(|| GltfError(format!("{key} must be a number"))),
            }
        };
        Ok(Material {
            base_color,
            metallic: factor("metallicFactor")?,
            roughness: factor("roughnessFactor")?,
        })
    }

    /// A base colour texture's mean linear colour: pyrender samples the texture at every
    /// pixel; one colour per part keeps a textured model's look (its hue and brightness)
    /// without texture coordinates in the rasteriser. An image that cannot be read counts
    /// as white, the factor alone.
    fn texture_mean(&self, info: &Value) -> Result<[f64; 3], GltfError> {
        let white = [1.0; 3];
        let Some(t) = index(info, "index")? else {
            return Ok(white);
        };
        let Some(source) = array(self.doc, "textures")
            .get(t)
            .map(|t| index(t, "source"))
            .transpose()?
            .flatten()
        else {
            return Ok(white);
        };
        let Some(image) = array(self.doc, "images").get(source) else {
            return Ok(white);
        };
        let bytes = match (
            index(image, "bufferView")?,
            image.get("uri").and_then(Value::as_str),
        ) {
            (Some(v), _) => self.view_bytes(v)?.to_vec(),
            (None, Some(uri)) if uri.starts_with("data:") => {
                match uri.split_once(',').and_then(|(_, d)| base64(d)) {
                    Some(b) => b,
                    None => return Ok(white),
                }
            }
            (None, Some(uri)) => match (self.beside)(&percent_decoded(uri)) {
                Some(b) => b.to_vec(),
                None => return Ok(white),
            },
            (None, None) => return Ok(white),
        };
        let Ok(img) = decode_rgb(&ImageFile::new("texture", bytes)) else {
            return Ok(white);
        };
        let mut sum = [0.0f64; 3];
        for y in 0..img.height {
            for x in 0..img.width {
                for (s, c) in sum.iter_mut().zip(img.pixel(x, y)) {
                    *s += srgb_to_linear(f64::from(c) / 255.0);
                }
            }
        }
        let n = f64::from(img.width) * f64::from(img.height);
        Ok(if n > 0.0 { sum.map(|s| s / n) } else { white })
    }

    fn view_bytes(&self, view_index: usize) -> Result<&[u8], GltfError> {
        let view = array(self.doc, "bufferViews")
            .get(view_index)
            .ok_or_else(|| GltfError(format!("buffer view {view_index} does not exist")))?;
        let buffer = index(view, "buffer")?
            .and_then(|b| self.buffers.get(b))
            .ok_or_else(|| GltfError(format!("buffer view {view_index} names no buffer")))?;
        let view_offset = view.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
        let view_len = view.get("byteLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        view_offset
            .checked_add(view_len)
            .and_then(|end| buffer.get(view_offset..end))
            .ok_or_else(|| GltfError(format!("buffer view {view_index} runs past its buffer")))
    }

    /// An accessor's values as f64, `width` per element (SCALAR 1, VEC2 2, VEC3 3).
    fn accessor(&self, i: usize, width: usize) -> Result<Vec<f64>, GltfError> {
        let a = array(self.doc, "accessors")
            .get(i)
            .ok_or_else(|| GltfError(format!("accessor {i} does not exist")))?;
        let expected = match width {
            1 => "SCALAR",
            2 => "VEC2",
            _ => "VEC3",
        };
        if a.get("type").and_then(Value::as_str) != Some(expected) {
            return err(format!("accessor {i} is not {expected}"));
        }
        if a.get("sparse").is_some() {
            return err(format!("accessor {i} is sparse, which is not read here"));
        }
        let count = a.get("count").and_then(Value::as_u64).unwrap_or(0) as usize;
        let component = a.get("componentType").and_then(Value::as_u64).unwrap_or(0);
        let normalized = a
            .get("normalized")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let size = match component {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            5125 | 5126 => 4,
            other => return err(format!("accessor {i} has component type {other}")),
        };
        if count > MAX_ELEMENTS {
            return err(format!(
                "accessor {i} has {count} elements, more than a model here may"
            ));
        }
        let Some(view_index) = index(a, "bufferView")? else {
            // No view: zeros (glTF's rule).
            return Ok(vec![0.0; count * width]);
        };
        let data = self.view_bytes(view_index)?;
        let view = &array(self.doc, "bufferViews")[view_index];
        let offset = a.get("byteOffset").and_then(Value::as_u64).unwrap_or(0) as usize;
        let element = size * width;
        let stride = match view.get("byteStride").and_then(Value::as_u64) {
            Some(s) if s as usize >= element => s as usize,
            _ => element,
        };
        let fits = count
            .checked_sub(1)
            .map_or(Some(0), |last| {
                last.checked_mul(stride)?
                    .checked_add(offset)?
                    .checked_add(element)
            })
            .is_some_and(|n| n <= data.len());
        if !fits {
            return err(format!("accessor {i} runs past its buffer view"));
        }
        let mut out = Vec::with_capacity(count * width);
        for e in 0..count {
            let at = offset + e * stride;
            for k in 0..width {
                let b = &data[at + k * size..at + (k + 1) * size];
                let v = match component {
                    5120 => f64::from(b[0] as i8),
                    5121 => f64::from(b[0]),
                    5122 => f64::from(i16::from_le_bytes([b[0], b[1]])),
                    5123 => f64::from(u16::from_le_bytes([b[0], b[1]])),
                    5125 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                    _ => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                };
                out.push(if normalized {
                    normalize(component, v)
                } else {
                    v
                });
            }
        }
        Ok(out)
    }
}

/// glTF's normalized integers (KHR_mesh_quantization's positions and coordinates).
fn normalize(component: u64, v: f64) -> f64 {
    match component {
        5120 => (v / 127.0).max(-1.0),
        5121 => v / 255.0,
        5122 => (v / 32767.0).max(-1.0),
        5123 => v / 65535.0,
        5125 => v / 4_294_967_295.0,
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A glb of one triangle under a translated node, with a material.
    fn triangle_glb(extra_json: &str) -> Vec<u8> {
        let mut bin = Vec::new();
        for v in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
        for i in [0u16, 1, 2, 0] {
            bin.extend_from_slice(&i.to_le_bytes());
        }
        let json = format!(
            r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
            "nodes":[{{"children":[1],"translation":[1,2,3]}},{{"mesh":0,"scale":[2,1,1]}}],
            "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}},"indices":1,"material":0}}]}}],
            "materials":[{{"pbrMetallicRoughness":{{"baseColorFactor":[0.5,0.25,1,1],"metallicFactor":0}}}}],
            "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}},
                         {{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}}],
            "bufferViews":[{{"buffer":0,"byteLength":36}},{{"buffer":0,"byteOffset":36,"byteLength":6}}],
            "buffers":[{{"byteLength":44}}]{extra_json}}}"#
        );
        let mut json = json.into_bytes();
        while json.len() % 4 != 0 {
            json.push(b' ');
        }
        let mut out = b"glTF".to_vec();
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&((12 + 8 + json.len() + 8 + bin.len()) as u32).to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(b"JSON");
        out.extend_from_slice(&json);
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
        out
    }

    #[test]
    fn a_glb_triangle_is_placed_by_its_node_tree() {
        let model = read_model(&triangle_glb(""), &|_| None).unwrap();
        assert_eq!(model.parts.len(), 1);
        let p = &model.parts[0];
        assert_eq!(
            p.positions,
            [[1.0, 2.0, 3.0], [3.0, 2.0, 3.0], [1.0, 4.0, 3.0]]
        );
        assert_eq!(p.triangles, [[0, 1, 2]]);
        assert_eq!(p.material.metallic, 0.0);
        assert_eq!(p.material.roughness, 1.0);
        assert_eq!(
            p.material.base_color,
            [128.0 / 255.0, 64.0 / 255.0, 1.0, 1.0]
        );
    }

    #[test]
    fn hostile_files_are_refused_with_reasons() {
        let good = triangle_glb("");
        for cut in [0, 10, 20, good.len() - 5] {
            assert!(read_model(&good[..cut], &|_| None).is_err(), "cut at {cut}");
        }
        let draco = triangle_glb(r#","extensionsRequired":["KHR_draco_mesh_compression"]"#);
        let e = read_model(&draco, &|_| None).unwrap_err();
        assert!(e.0.contains("KHR_draco_mesh_compression"), "{e}");
        assert!(read_model(b"{not json", &|_| None).is_err());
        let cycle = br#"{"nodes":[{"children":[0]}]}"#;
        assert!(
            read_model(cycle, &|_| None).is_ok(),
            "no root: nothing drawn"
        );
        let cycle = br#"{"scenes":[{"nodes":[0]}],"nodes":[{"children":[0]}]}"#;
        assert!(read_model(cycle, &|_| None).is_err());
    }

    #[test]
    fn gltf_buffers_come_from_data_uris_or_beside_the_model() {
        let json = |uri: &str| {
            format!(
                r#"{{"scenes":[{{"nodes":[0]}}],"nodes":[{{"mesh":0}}],
                "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],
                "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}}],
                "bufferViews":[{{"buffer":0,"byteLength":36}}],
                "buffers":[{{"byteLength":36,"uri":"{uri}"}}]}}"#
            )
        };
        let mut bin = Vec::new();
        for v in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
            bin.extend_from_slice(&v.to_le_bytes());
        }
        let b64 = {
            const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut s = String::new();
            for c in bin.chunks(3) {
                let n = (u32::from(c[0]) << 16)
                    | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
                    | u32::from(*c.get(2).unwrap_or(&0));
                for k in 0..=c.len() {
                    s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
                }
            }
            s
        };
        let embedded = json(&format!("data:application/octet-stream;base64,{b64}"));
        let m = read_model(embedded.as_bytes(), &|_| None).unwrap();
        assert_eq!(m.parts[0].triangles, [[0, 1, 2]]);
        let bin: Arc<[u8]> = bin.into();
        let beside = json("my%20model.bin");
        let m2 = read_model(beside.as_bytes(), &|name| {
            (name == "my model.bin").then(|| bin.clone())
        })
        .unwrap();
        assert_eq!(m, m2);
        assert!(read_model(beside.as_bytes(), &|_| None).is_err());
    }
}
