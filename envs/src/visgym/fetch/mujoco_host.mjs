// The MuJoCo side of VisGym's Fetch environments (docs/fetch.md, "Physics host"): MuJoCo's
// official WebAssembly module running the Fetch models for the Rust environments, which
// keep every rule and every random draw. The same file serves the browser (the app calls
// it through wasm-bindgen) and the command line (a Node process reading JSON lines), so
// both run the same module on the same calls and agree bit for bit.
//
// Stateless by design: a request carries the whole simulation state (MuJoCo's
// mjSTATE_INTEGRATION fields plus the three model fields the environments change), the
// host loads it into scratch data, runs the request's operations and returns the state
// and what was read. Copying an environment is copying its state; nothing lives here
// between requests but the compiled models.

const MODELS = { reach: 'fetch/reach.xml', pick_and_place: 'fetch/pick_and_place.xml' };
const ROOT = '/playbench-fetch';
const DATA_ARRAYS = ['qpos', 'qvel', 'ctrl', 'mocap_pos', 'mocap_quat', 'qacc_warmstart'];
const MODEL_ARRAYS = ['eq_data', 'site_pos'];
const READABLE = new Set([...DATA_ARRAYS, ...MODEL_ARRAYS, 'time', 'disableflags', 'xpos',
  'xquat', 'xmat', 'site_xpos', 'site_xmat', 'geom_xpos', 'geom_xmat', 'qacc']);

/**
 * @param {any} mj  the instantiated module (`await createModule()` from mujoco.js)
 * @param {Map<string, Uint8Array>} files  the Fetch assets by path (`fetch/reach.xml`,
 *   `stls/fetch/*.stl`, `textures/*.png`), as gymnasium-robotics lays them out
 */
export function createHost(mj, files) {
  for (const [rel, bytes] of files) {
    const file = `${ROOT}/${rel}`;
    mj.FS.mkdirTree(file.slice(0, file.lastIndexOf('/')));
    mj.FS.writeFile(file, bytes);
  }
  const loaded = new Map();
  const model = (name) => {
    if (loaded.has(name)) return loaded.get(name);
    const xml = MODELS[name];
    if (!xml) throw new Error(`no Fetch model named ${JSON.stringify(name)}`);
    if (!files.has(xml)) throw new Error(`the Fetch assets lack ${xml}`);
    const m = mj.MjModel.mj_loadXML(`${ROOT}/${xml}`);
    const d = new mj.MjData(m);
    const compiled = {
      eq_data: Float64Array.from(m.eq_data),
      site_pos: Float64Array.from(m.site_pos),
      disableflags: m.opt.disableflags,
    };
    const entry = { m, d, compiled };
    loaded.set(name, entry);
    return entry;
  };

  const jac = new Map();
  const field = (m, d, name) => (MODEL_ARRAYS.includes(name) ? m[name] : d[name]);

  const setField = ({ m, d }, name, values) => {
    if (name === 'time') d.time = values;
    else if (name === 'disableflags') m.opt.disableflags = values;
    else if (DATA_ARRAYS.includes(name) || MODEL_ARRAYS.includes(name)) {
      const target = field(m, d, name);
      if (values.length !== target.length) {
        throw new Error(`${name} has ${target.length} values, not ${values.length}`);
      }
      target.set(values);
    } else throw new Error(`cannot set ${JSON.stringify(name)}`);
  };

  const readField = ({ m, d }, name) => {
    if (!READABLE.has(name)) throw new Error(`cannot read ${JSON.stringify(name)}`);
    if (name === 'time') return d.time;
    if (name === 'disableflags') return m.opt.disableflags;
    return Array.from(field(m, d, name));
  };

  const state = (e) => {
    const s = {};
    for (const k of ['time', ...DATA_ARRAYS, ...MODEL_ARRAYS, 'disableflags']) s[k] = readField(e, k);
    return s;
  };

  const load = (e, s) => {
    const { m, d, compiled } = e;
    mj.mj_resetData(m, d);
    m.eq_data.set(compiled.eq_data);
    m.site_pos.set(compiled.site_pos);
    m.opt.disableflags = compiled.disableflags;
    if (s == null) return;
    for (const k of ['time', ...DATA_ARRAYS, ...MODEL_ARRAYS, 'disableflags']) {
      if (!(k in s)) throw new Error(`the state lacks ${k}`);
      setField(e, k, s[k]);
    }
    // Positions and frames as an mj_forward of this state leaves them, which is what the
    // environments' data holds between requests (each of their requests ends with one);
    // mj_forward changes no state field.
    mj.mj_forward(m, d);
  };

  const ids = (m, type, count) => {
    const out = {};
    for (let i = 0; i < count; i++) {
      const name = mj.mj_id2name(m, type, i);
      if (name) out[name] = i;
    }
    return out;
  };

  // What a rasteriser needs to draw the model as MuJoCo's default visualisation does.
  const scene = (m) => {
    const arr = (a) => Array.from(a);
    return {
      extent: m.stat.extent,
      fovy: m.vis.global.fovy,
      headlight: {
        ambient: arr(m.vis.headlight.ambient),
        diffuse: arr(m.vis.headlight.diffuse),
        specular: arr(m.vis.headlight.specular),
      },
      lights: Array.from({ length: m.nlight }, (_, i) => ({
        dir: arr(m.light_dir.subarray(3 * i, 3 * i + 3)),
        ambient: arr(m.light_ambient.subarray(3 * i, 3 * i + 3)),
        diffuse: arr(m.light_diffuse.subarray(3 * i, 3 * i + 3)),
        specular: arr(m.light_specular.subarray(3 * i, 3 * i + 3)),
      })),
      geom_type: arr(m.geom_type), geom_size: arr(m.geom_size), geom_rgba: arr(m.geom_rgba),
      geom_matid: arr(m.geom_matid), geom_dataid: arr(m.geom_dataid), geom_bodyid: arr(m.geom_bodyid),
      geom_group: arr(m.geom_group), mat_rgba: arr(m.mat_rgba),
      site_type: arr(m.site_type), site_size: arr(m.site_size), site_rgba: arr(m.site_rgba),
      site_group: arr(m.site_group),
      mesh_vertadr: arr(m.mesh_vertadr), mesh_vertnum: arr(m.mesh_vertnum),
      mesh_faceadr: arr(m.mesh_faceadr), mesh_facenum: arr(m.mesh_facenum),
      mesh_vert: arr(m.mesh_vert), mesh_face: arr(m.mesh_face),
      skybox: skybox(m),
      body_mocapid: arr(m.body_mocapid),
      mat_specular: arr(m.mat_specular), mat_shininess: arr(m.mat_shininess), mat_emission: arr(m.mat_emission),
      mesh_normal: arr(m.mesh_normal), mesh_normaladr: arr(m.mesh_normaladr), mesh_facenormal: arr(m.mesh_facenormal),
    };
  };
  // The gradient skybox's two colours (texture type 2 = skybox, builtin gradient), from
  // its texture data's first and last rows, or null.
  const skybox = (m) => {
    for (let t = 0; t < m.ntex; t++) {
      if (m.tex_type[t] !== 2) continue;
      const adr = m.tex_adr[t];
      const w = m.tex_width[t];
      const h = m.tex_height[t];
      const nc = m.tex_nchannel ? m.tex_nchannel[t] : 3;
      const px = (i) => Array.from(m.tex_data.subarray(adr + nc * i, adr + nc * i + 3));
      return { width: w, height: h, first: px(0), last: px(w * h - 1) };
    }
    return null;
  };

  const describe = (name) => {
    const e = model(name);
    const { m } = e;
    const obj = mj.mjtObj;
    const joints = {};
    for (const [jn, j] of Object.entries(ids(m, obj.mjOBJ_JOINT.value, m.njnt))) {
      joints[jn] = { id: j, qposadr: m.jnt_qposadr[j], dofadr: m.jnt_dofadr[j] };
    }
    load(e, null);
    return {
      version: mj.mj_versionString(),
      nq: m.nq, nv: m.nv, nu: m.nu, nmocap: m.nmocap, nbody: m.nbody, ngeom: m.ngeom, nsite: m.nsite,
      joints,
      bodies: ids(m, obj.mjOBJ_BODY.value, m.nbody),
      sites: ids(m, obj.mjOBJ_SITE.value, m.nsite),
      body_mocapid: Array.from(m.body_mocapid),
      actuator_trnid: Array.from(m.actuator_trnid),
      eq_type: Array.from(m.eq_type),
      eq_obj1id: Array.from(m.eq_obj1id),
      eq_obj2id: Array.from(m.eq_obj2id),
      weld: mj.mjtEq.mjEQ_WELD.value,
      warmstart_bit: mj.mjtDisableBit.mjDSBL_WARMSTART.value,
      state: state(e),
      scene: scene(m),
    };
  };

  const run = (name, s, ops) => {
    const e = model(name);
    load(e, s);
    const reads = [];
    for (const op of ops) {
      switch (op[0]) {
        case 'step':
          for (let i = 0; i < op[1]; i++) mj.mj_step(e.m, e.d);
          break;
        case 'forward':
          mj.mj_forward(e.m, e.d);
          break;
        case 'set':
          setField(e, op[1], op[2]);
          break;
        case 'set_at': {
          // ['set_at', field, index, values]: part of an array field (a joint's qpos).
          const target = field(e.m, e.d, op[1]);
          if (!(DATA_ARRAYS.includes(op[1]) || MODEL_ARRAYS.includes(op[1]))) throw new Error(`cannot set ${op[1]}`);
          if (!(op[2] >= 0 && op[2] + op[3].length <= target.length)) throw new Error(`${op[1]} has no entries ${op[2]}..${op[2] + op[3].length}`);
          target.set(op[3], op[2]);
          break;
        }
        case 'shift_site': {
          // ['shift_site', site, reference, point]: site_pos[site] = point - (site_xpos[reference]
          // - site_pos[reference]), in this order, with the data's current site_xpos (how
          // Gymnasium-Robotics' Fetch moves its goal marker, docs/fetch-reference.md §2.3).
          const [, site, ref, point] = op;
          if (!(site >= 0 && site < e.m.nsite && ref >= 0 && ref < e.m.nsite)) throw new Error('no such site');
          const xpos = e.d.site_xpos;
          const pos = e.m.site_pos;
          const offset = [0, 1, 2].map((k) => xpos[3 * ref + k] - pos[3 * ref + k]);
          for (let k = 0; k < 3; k++) pos[3 * site + k] = point[k] - offset[k];
          break;
        }
        case 'read': {
          const r = {};
          for (const f of op[1]) r[f] = readField(e, f);
          reads.push(r);
          break;
        }
        case 'site_jacobian': {
          const nv = e.m.nv;
          if (!jac.has(nv)) jac.set(nv, [new mj.DoubleBuffer(3 * nv), new mj.DoubleBuffer(3 * nv)]);
          const [jacp, jacr] = jac.get(nv);
          if (!(op[1] >= 0 && op[1] < e.m.nsite)) throw new Error(`no site ${op[1]}`);
          mj.mj_jacSite(e.m, e.d, jacp, jacr, op[1]);
          reads.push({ jacp: Array.from(jacp.GetView()), jacr: Array.from(jacr.GetView()) });
          break;
        }
        default:
          throw new Error(`unknown operation ${JSON.stringify(op[0])}`);
      }
    }
    return { reads, state: state(e) };
  };

  return {
    /** One request (JSON text) to one response (JSON text); errors are answers too. */
    exchange(text) {
      try {
        const req = JSON.parse(text);
        if (req.describe !== undefined) return JSON.stringify({ ok: describe(req.describe) });
        return JSON.stringify({ ok: run(req.run, req.state, req.ops ?? []) });
      } catch (err) {
        return JSON.stringify({ error: String(err && err.message ? err.message : err) });
      }
    },
  };
}
