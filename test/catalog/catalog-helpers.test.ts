import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../core/catalog/byte-range.ts';
import { byteSwapStream } from '../../core/catalog/byte-swap-stream.ts';
import { contentDisposition } from '../../core/catalog/content-disposition.ts';
import { parseDataUri } from '../../core/catalog/data-uri.ts';
import { dataMediaType, imageMediaType } from '../../core/catalog/file-media-types.ts';
import { inferSpecimenType } from '../../core/catalog/infer-specimen-type.ts';
import { isValidSpecimenId } from '../../core/catalog/specimen-id.ts';
import { readSpecimenMetadata } from '../../core/catalog/specimen-metadata.ts';
import { sniffImageType } from '../../core/catalog/sniff-image-type.ts';

describe('parseDataUri', () => {
  it('decodes base64 with and without padding, wrapped lines and percent-escapes', () => {
    expect(parseDataUri('data:image/png;base64,aGVsbG8=')).toEqual({ mediaType: 'image/png', bytes: Buffer.from('hello') });
    expect(parseDataUri('data:image/png;base64,aGVsbG8')?.bytes.toString()).toBe('hello');
    expect(parseDataUri('data:image/png;base64,aGVs\n bG8=')?.bytes.toString()).toBe('hello');
    expect(parseDataUri('data:IMAGE/PNG;BASE64,aGVsbG8%3D')).toEqual({ mediaType: 'image/png', bytes: Buffer.from('hello') });
  });

  it('decodes percent-encoded and plain text payloads to bytes', () => {
    expect(parseDataUri('data:image/svg+xml;charset=utf-8,%3Csvg%3E%C3%A9')?.bytes.toString('utf8')).toBe('<svg>é');
    expect(parseDataUri('data:,plain é')?.bytes.toString('utf8')).toBe('plain é');
    expect(parseDataUri('data:,x')?.mediaType).toBeNull();
  });

  it.each([
    'image/png;base64,aGVsbG8=',
    'data:image/png;base64',
    'data:image/png;base64,a',
    'data:image/png;base64,aGVs*G8=',
    'data:image/png;base64,aGVsbG8=a',
    'data:image/png,%G0',
    'data:image/png,%4',
    'data:not a type;base64,aGVsbG8=',
  ])('rejects %j', (uri) => {
    expect(parseDataUri(uri)).toBeNull();
  });
});

describe('contentDisposition', () => {
  it('quotes plain names and escapes quotes and backslashes', () => {
    expect(contentDisposition('brain.stl')).toBe('attachment; filename="brain.stl"');
    expect(contentDisposition('a "b".obj')).toBe('attachment; filename="a \\"b\\".obj"');
    expect(contentDisposition('a\\b.obj')).toBe('attachment; filename="a\\\\b.obj"');
  });

  it('adds an RFC 8187 filename* for non-ASCII names', () => {
    expect(contentDisposition('crâne (CT).npy')).toBe(`attachment; filename="cr_ne (CT).npy"; filename*=UTF-8''cr%C3%A2ne%20%28CT%29.npy`);
    expect(contentDisposition('模型.glb')).toBe(`attachment; filename="__.glb"; filename*=UTF-8''%E6%A8%A1%E5%9E%8B.glb`);
  });

  it('never lets a header break out of its line', () => {
    expect(contentDisposition('evil\r\nSet-Cookie: x=1.obj')).not.toMatch(/[\r\n]/);
  });
});

describe('file types', () => {
  it('infers specimen types from extensions', () => {
    expect(['a.OBJ', 'b.ply', 'c.stl', 'd.glb', 'e.gltf'].map(inferSpecimenType)).toEqual(Array(5).fill('mesh'));
    expect(['a.npy', 'b.raw', 'c.nrrd', 'd.nii.gz'].map(inferSpecimenType)).toEqual(Array(4).fill('volume'));
    expect(['a.pcd', 'b.xyz', 'c.las'].map(inferSpecimenType)).toEqual(Array(3).fill('point_cloud'));
    expect(['a.png', 'b.jpg', 'c.tif'].map(inferSpecimenType)).toEqual(Array(3).fill('image'));
    expect(inferSpecimenType('readme')).toBeNull();
  });

  it('maps data and image content types', () => {
    expect(dataMediaType('m.GLB')).toBe('model/gltf-binary');
    expect(dataMediaType('m.gltf')).toBe('model/gltf+json');
    expect(dataMediaType('m.stl')).toBe('model/stl');
    expect(dataMediaType('m.obj')).toBe('model/obj');
    expect(dataMediaType('i.png')).toBe('image/png');
    expect(dataMediaType('x.unknown')).toBe('application/octet-stream');
    expect(imageMediaType('t.JPEG')).toBe('image/jpeg');
    expect(imageMediaType('t.svg')).toBe('image/svg+xml');
    expect(imageMediaType('t.glb')).toBeNull();
  });

  it('sniffs images by their first bytes', () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="x">'))).toBe('image/svg+xml');
    expect(sniffImageType(Buffer.from('<html><script>'))).toBeNull();
  });
});

describe('specimen ids and metadata', () => {
  it('accepts URL-safe ids only', () => {
    expect(['a', 'A1', 'brain.v2', 'ct_head-1'].every(isValidSpecimenId)).toBe(true);
    expect(['', '-a', '.hidden', 'a/b', 'a b', 'w:s', '..', 'é', 'x'.repeat(129)].some(isValidSpecimenId)).toBe(false);
  });

  it('treats empty file fields as unset, as the reference writes them', () => {
    const { metadata, problems } = readSpecimenMetadata({ data_file: '', thumbnail_file: '', story_text: [] }, 'f');
    expect(problems).toEqual([]);
    expect(metadata).toMatchObject({ id: 'f', data_file: null, thumbnail: null, story: null });
  });

  it('accepts comma-separated tags and our story string', () => {
    const { metadata } = readSpecimenMetadata({ tags: 'a, b,,c', story: 'Once.' }, 'f');
    expect(metadata).toMatchObject({ tags: ['a', 'b', 'c'], story: 'Once.' });
  });

  it('rejects non-finite or non-numeric spacing', () => {
    const { metadata, problems } = readSpecimenMetadata({ spacing: [1, 'x', 2], origin: [0, 0, 0] }, 'f');
    expect(metadata).toMatchObject({ spacing: null, origin: [0, 0, 0] });
    expect(problems).toHaveLength(1);
  });

  it('reads a #rrggbb colour and drops anything else with a problem', () => {
    expect(readSpecimenMetadata({ color: '#d9534f' }, 'f').metadata).toMatchObject({ color: '#d9534f' });
    expect(readSpecimenMetadata({ colour: '#00FF7f' }, 'f').metadata).toMatchObject({ color: '#00FF7f' });
    const { metadata, problems } = readSpecimenMetadata({ color: 'red' }, 'f');
    expect(metadata).toMatchObject({ color: null });
    expect(problems).toEqual([`'color' must be a colour written #rrggbb, got "red": ignored`]);
  });
});

describe('byteSwapStream', () => {
  it('swaps elements split across chunk boundaries', async () => {
    const source = Buffer.from(Uint32Array.from([1, 2, 3, 0x01020304]).buffer);
    const chunks = [source.subarray(0, 3), source.subarray(3, 9), source.subarray(9)];
    const out: Buffer[] = [];
    for await (const c of Readable.from(chunks).pipe(byteSwapStream(4))) out.push(c as Buffer);
    const swapped = Buffer.concat(out);
    expect(swapped.readUInt32BE(0)).toBe(1);
    expect(swapped.readUInt32BE(12)).toBe(0x01020304);
    expect(swapped.length).toBe(16);
  });

  it('fails on a trailing partial element', async () => {
    const run = async (): Promise<void> => {
      for await (const _ of Readable.from([Buffer.alloc(5)]).pipe(byteSwapStream(2))) void _;
    };
    await expect(run()).rejects.toThrow(/inside a 2-byte element/);
  });
});

describe('parseByteRange', () => {
  it.each([
    [undefined, 100, { kind: 'none' }],
    ['bytes=0-9', 100, { kind: 'range', start: 0, end: 9 }],
    ['bytes=90-', 100, { kind: 'range', start: 90, end: 99 }],
    ['bytes=90-500', 100, { kind: 'range', start: 90, end: 99 }],
    ['bytes=-5', 100, { kind: 'range', start: 95, end: 99 }],
    ['bytes=-500', 100, { kind: 'range', start: 0, end: 99 }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-0', 0, { kind: 'unsatisfiable' }],
    ['bytes=5-2', 100, { kind: 'none' }],
    ['bytes=0-1, 4-5', 100, { kind: 'none' }],
    ['bytes=-', 100, { kind: 'none' }],
    ['items=0-1', 100, { kind: 'none' }],
  ] as const)('%j of %i bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});
