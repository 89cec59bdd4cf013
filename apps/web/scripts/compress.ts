/**
 * After `vite build`: a .br and a .gz copy of every text asset in apps/web/dist, which the server
 * sends to browsers that accept them (@fastify/static preCompressed), compressed once at build
 * time at the highest levels instead of on every request.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });

let raw = 0;
let br = 0;
for (const file of files(dist).filter((f) => TEXT.test(f) && !f.includes(`${path.sep}.vite${path.sep}`))) {
  const body = readFileSync(file);
  if (body.length < 1024) continue;
  const b = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${file}.br`, b);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  raw += body.length;
  br += b.length;
}
console.log(
  `compressed: ${(raw / 1024).toFixed(0)} kB -> ${(br / 1024).toFixed(0)} kB brotli (.br and .gz next to each file)`,
);
