// The wasm half of the MuJoCo evaluation (docs/physics-engine.md): replays the episode
// that native.py recorded on the npm `mujoco` WebAssembly module, and returns timings,
// a SHA-256 of the qpos+qvel float64 bytes after every env step, and the raw values.
// The same file runs in a Chromium page (page.html) and under Node (browser.mjs --node).
//
// The action mapping is the one native.py applies to its direct MuJoCo loop (and checks
// against the gymnasium-robotics environment):
//   clip the float32 action to [-1, 1]; move = float32(action[0..3] * float32(0.05));
//   every position actuator: ctrl = qpos[its joint] + gripper (0 when the gripper is
//   blocked, as in Fetch Reach); the mocap body of each weld: pos = welded body's xpos
//   + move, quat = welded body's xquat + (1, 0, 1, 0);
//   then n_substeps mj_step; a blocked gripper has its two finger joints set to 0
//   followed by mj_forward.

const MOVE_SCALE = Math.fround(0.05);
const QUAT_DELTA = [1, 0, 1, 0];
const FINGERS = ['robot0:l_gripper_finger_joint', 'robot0:r_gripper_finger_joint'];
const FINGERPRINT = ['body_mass', 'body_inertia', 'body_ipos', 'body_iquat', 'body_pos', 'body_quat',
  'geom_size', 'geom_pos', 'geom_quat', 'geom_rbound', 'mesh_vert', 'dof_armature',
  'dof_damping', 'eq_data', 'jnt_range'];

async function sha256Hex(bytes) {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * @param {object} o
 * @param {(opts?: object) => Promise<any>} o.createModule  the npm module's default export
 * @param {(rel: string) => Promise<Uint8Array>} o.readAsset  a file under gymnasium_robotics/envs/assets
 * @param {object} o.input  native.py's JSON (init, actions, asset_files, xml, n_substeps, ...)
 * @param {number} [o.repeats]  timed repetitions of the episode
 */
export async function runEpisode({ createModule, readAsset, input, repeats = 3 }) {
  const now = () => performance.now();
  const t0 = now();
  const mj = await createModule();
  const instantiateMs = now() - t0;

  const t1 = now();
  const root = '/fetch-assets';
  let assetBytes = 0;
  for (const rel of input.asset_files) {
    let bytes = await readAsset(rel);
    assetBytes += bytes.length;
    if (rel === input.xml && input.compiler_usethread_false) {
      // Some builds (npm `mujoco@3.1.16`) cannot start the compiler's mesh thread pool
      // in Chromium (std::system_error); this attribute only changes how meshes are
      // processed at compile time, not the compiled model (see model_fingerprint).
      const text = new TextDecoder().decode(bytes).replace('<compiler ', '<compiler usethread="false" ');
      bytes = new TextEncoder().encode(text);
    }
    const file = `${root}/${rel}`;
    mj.FS.mkdirTree(file.slice(0, file.lastIndexOf('/')));
    mj.FS.writeFile(file, bytes);
  }
  const writeFilesMs = now() - t1;
  const t2 = now();
  const model = mj.MjModel.mj_loadXML(`${root}/${input.xml}`);
  const loadModelMs = now() - t2;
  const data = new mj.MjData(model);

  if (model.eq_data.length !== input.init.eq_data.length) throw new Error('eq_data size differs');
  model.eq_data.set(input.init.eq_data);
  const sizes = { nq: model.nq, nv: model.nv, nu: model.nu, nmocap: model.nmocap, neq: model.neq, nbody: model.nbody };

  const fingerprint = {};
  for (const name of FINGERPRINT) {
    const f64 = Float64Array.from(model[name]);
    fingerprint[name] = (await sha256Hex(f64.buffer)).slice(0, 16);
  }

  const weldType = mj.mjtEq.mjEQ_WELD.value;
  const mocapId = model.body_mocapid;
  const welds = [];
  for (let e = 0; e < model.neq; e++) {
    if (model.eq_type[e] !== weldType) continue;
    const b1 = model.eq_obj1id[e];
    const b2 = model.eq_obj2id[e];
    welds.push(mocapId[b1] >= 0 ? [mocapId[b1], b2] : [mocapId[b2], b1]);
  }
  const jointType = mj.mjtObj.mjOBJ_JOINT.value;
  const fingers = FINGERS.map((n) => model.jnt_qposadr[mj.mj_name2id(model, jointType, n)]);
  const actQadr = Array.from({ length: model.nu }, (_, i) => model.jnt_qposadr[model.actuator_trnid[2 * i]]);
  const biastype = Array.from(model.actuator_biastype);
  const { nq, nv } = model;
  const nsub = input.n_substeps;
  const block = input.block_gripper;

  const reset = () => {
    mj.mj_resetData(model, data);
    data.time = input.init.time;
    data.qpos.set(input.init.qpos);
    data.qvel.set(input.init.qvel);
    mj.mj_forward(model, data);
  };
  const applyAction = (action) => {
    const a = action.map((v) => Math.fround(Math.min(1, Math.max(-1, v))));
    const move = [0, 1, 2].map((k) => Math.fround(a[k] * MOVE_SCALE));
    const g = block ? 0 : a[3];
    const qpos = data.qpos;
    const ctrl = data.ctrl;
    for (let i = 0; i < model.nu; i++) ctrl[i] = biastype[i] === 0 ? g : qpos[actQadr[i]] + g;
    const xpos = data.xpos;
    const xquat = data.xquat;
    const mpos = data.mocap_pos;
    const mquat = data.mocap_quat;
    for (const [m, b] of welds) {
      for (let k = 0; k < 3; k++) mpos[3 * m + k] = xpos[3 * b + k] + move[k];
      for (let k = 0; k < 4; k++) mquat[4 * m + k] = xquat[4 * b + k] + QUAT_DELTA[k];
    }
  };
  const afterStep = () => {
    if (!block) return;
    const qpos = data.qpos;
    for (const q of fingers) qpos[q] = 0;
    mj.mj_forward(model, data);
  };

  // The recorded run.
  reset();
  const resetQacc = Array.from(data.qacc); // one mj_forward on identical inputs
  const hashes = [];
  const states = [];
  const state = new Float64Array(nq + nv);
  for (const action of input.actions) {
    applyAction(action);
    for (let s = 0; s < nsub; s++) mj.mj_step(model, data);
    afterStep();
    state.set(data.qpos, 0);
    state.set(data.qvel, nq);
    hashes.push(await sha256Hex(state.buffer));
    states.push(Array.from(state));
  }

  // Timed runs (no hashing).
  const runs = [];
  for (let r = 0; r < repeats; r++) {
    reset();
    let stepMs = 0;
    const e0 = now();
    for (const action of input.actions) {
      applyAction(action);
      const s0 = now();
      for (let s = 0; s < nsub; s++) mj.mj_step(model, data);
      stepMs += now() - s0;
      afterStep();
    }
    const episodeMs = now() - e0;
    runs.push({
      mj_step_per_s: Math.round((input.actions.length * nsub) / (stepMs / 1e3)),
      direct_env_steps_per_s: Math.round(input.actions.length / (episodeMs / 1e3)),
    });
  }

  const result = {
    mj_versionString: mj.mj_versionString(),
    instantiate_ms: round(instantiateMs),
    write_files_ms: round(writeFilesMs),
    asset_bytes: assetBytes,
    load_model_ms: round(loadModelMs),
    sizes,
    model_fingerprint: fingerprint,
    reset_qacc: resetQacc,
    hashes,
    states,
    timing_runs: runs,
  };
  data.delete();
  model.delete();
  return result;
}

function round(x) {
  return Math.round(x * 100) / 100;
}
