#![allow(clippy::unwrap_used)]
use std::io::Write;
#[test]
fn dump_frames() {
    for (id, seed) in [
        ("maze_3d/easy", 3u64),
        ("maze_2d/easy", 3),
        ("matchstick_equation/hard", 5),
    ] {
        let mut kw = serde_json::Map::new();
        kw.insert("seed".into(), seed.into());
        let mut env = envs::visgym::make(id, &kw).unwrap();
        env.reset(Some(seed));
        let mut f = envs::Frame::default();
        env.render(&mut f);
        let name = id.replace('/', "_");
        let mut out = std::fs::File::create(format!("/tmp/{name}.ppm")).unwrap();
        write!(out, "P6\n{} {}\n255\n", f.width(), f.height()).unwrap();
        out.write_all(f.data()).unwrap();
        println!("{id} {}", env.state_json(false));
    }
}
