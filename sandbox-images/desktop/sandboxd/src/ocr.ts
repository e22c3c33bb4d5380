import { spawn } from 'node:child_process';
import type { Sharp } from 'sharp';
import type { OcrLine, OcrWord, SandboxdParams, SandboxdResult } from '../../../../electron/contract/sandboxProtocol.js';
import { grab } from './capture.js';
import { clipRegion, regionImage } from './region.js';

// Screen text is small (13–16 px): Tesseract reads it far better at twice the size, in grey.
const SCALE = 2;
const CALL_MS = 30_000;
/** Words below this confidence that hold no letter or digit are border and icon noise ("||"). */
const NOISE_CONFIDENCE = 60;
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/** ocr.read: the words and lines of the screen or one region, boxes in screen pixels. */
export async function readText(
  p: Required<Omit<SandboxdParams<'ocr.read'>, 'region'>> & SandboxdParams<'ocr.read'>,
): Promise<SandboxdResult<'ocr.read'>> {
  const started = Date.now();
  const frame = await grab();
  const region = clipRegion(frame, p.region);
  const grey = regionImage(frame, region).greyscale();
  // A dark region is inverted, and its ground (then a mid grey) stretched to white, as Tesseract reads best.
  const png = await ((await isDark(grey.clone())) ? grey.negate().normalise() : grey)
    .resize(region.width * SCALE, region.height * SCALE, { kernel: 'cubic' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const tsv = await tesseract(png, p.languages.join('+'));
  const lines = linesOf(tsv, region);
  return { region, words: lines.flatMap((l) => l.words), lines, ms: Date.now() - started };
}

/**
 * Whether a grey region is mostly dark. Tesseract reads dark text on a light ground; a dark
 * theme's light text was misread or missed (保存 inside 保存草稿 at both screen sizes). The whole
 * region is judged at once: inverting only where the ground is dark read worse in both themes.
 */
async function isDark(grey: Sharp): Promise<boolean> {
  const pixels = await grey.extractChannel(0).raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < pixels.length; i++) sum += pixels[i]!;
  return pixels.length > 0 && sum / pixels.length < 128;
}

function tesseract(png: Buffer, languages: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // One thread: the desktop shares its cores with the task's apps, and OpenMP's spinning costs more than it gains.
    const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
    const child = spawn('tesseract', ['stdin', 'stdout', '-l', languages, 'tsv'], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), CALL_MS);
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-2_000)));
    child.on('error', (error) => reject(new Error(`tesseract did not start: ${error.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`tesseract exited ${code}: ${err.trim()}`));
    });
    child.stdin.end(png);
  });
}

/** Tesseract's TSV (level 5 = word) grouped into its lines, boxes mapped back to the screen. */
function linesOf(tsv: string, region: { x: number; y: number }): OcrLine[] {
  const lines = new Map<string, OcrWord[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const cols = row.split('\t');
    if (cols.length < 12 || cols[0] !== '5') continue;
    const text = (cols[11] ?? '').trim();
    const confidence = Number(cols[10]);
    if (!text || confidence < 0 || (confidence < NOISE_CONFIDENCE && !/[\p{L}\p{N}]/u.test(text))) continue;
    const [left, top, width, height] = cols.slice(6, 10).map(Number) as [number, number, number, number];
    const word: OcrWord = {
      text,
      confidence: Math.round(confidence * 10) / 10,
      box: {
        x: region.x + Math.floor(left / SCALE),
        y: region.y + Math.floor(top / SCALE),
        width: Math.max(1, Math.round(width / SCALE)),
        height: Math.max(1, Math.round(height / SCALE)),
      },
    };
    const key = cols.slice(1, 5).join('.');
    lines.set(key, [...(lines.get(key) ?? []), word]);
  }
  return [...lines.values()].map((words) => ({ text: joinWords(words), box: unionOf(words.map((w) => w.box)), words }));
}

/** Words as written: a space between words, none between two CJK characters. */
export function joinWords(words: readonly { text: string }[]): string {
  return words.reduce((text, w, i) => {
    if (i === 0) return w.text;
    const cjkSeam = CJK.test(text.slice(-1)) && CJK.test(w.text.charAt(0));
    return text + (cjkSeam ? '' : ' ') + w.text;
  }, '');
}

function unionOf(boxes: readonly { x: number; y: number; width: number; height: number }[]): OcrLine['box'] {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}
