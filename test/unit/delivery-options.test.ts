import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { checkDeliveryFits } from '../../core/delivery/check-delivery.ts';
import { withClientProfile } from '../../core/delivery/client-profile.ts';
import { chooseEncoding } from '../../core/delivery/content-encoding.ts';
import { deliveryKey } from '../../core/delivery/delivery-options.ts';
import { parseDeliveryObject, parseDeliveryQuery } from '../../core/delivery/parse-delivery.ts';
import { isHostError } from '../../core/errors.ts';

function refusal(fn: () => unknown): { code: string; detail: string } {
  try {
    fn();
  } catch (error) {
    if (!isHostError(error)) throw error;
    return { code: error.code, detail: error.message };
  }
  throw new Error('expected a refusal');
}

describe('delivery options', () => {
  it('parses every option from a query, skipping params and room_id', () => {
    const options = parseDeliveryQuery({
      params: '{}',
      room_id: 'r',
      format: 'envelope',
      max_triangles: '1000',
      dtype: 'uint8',
      window: '-1.5,2',
      max_dim: '64',
    });
    expect(options).toEqual({ format: 'envelope', max_triangles: 1000, dtype: 'uint8', window: [-1.5, 2], max_dim: 64 });
    expect(deliveryKey(options)).toBe('format=envelope&max_triangles=1000&dtype=uint8&window=-1.5,2&max_dim=64');
  });

  it('parses a POST delivery object with JSON numbers and arrays', () => {
    expect(parseDeliveryObject({ max_dim: 32, window: [0, 1], dtype: 'uint16' })).toEqual({ max_dim: 32, window: [0, 1], dtype: 'uint16' });
    expect(parseDeliveryObject(undefined)).toEqual({});
  });

  it.each([
    [{ colour: 'red' }, 'SPC_ERR_DELIVERY_OPTION_UNKNOWN', 'colour'],
    [{ max_triangles: '0' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'max_triangles'],
    [{ max_triangles: '1.5' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'max_triangles'],
    [{ dtype: 'int7' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'dtype'],
    [{ window: '5,1' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'window'],
    [{ window: '1' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'window'],
    [{ window: 'a,b' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'window'],
    [{ max_dim: '-1' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'max_dim'],
    [{ format: 'fbx' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'format'],
    [{ compress: 'zip' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'compress'],
    [{ normals: 'no' }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'normals'],
    [{ dtype: ['uint8', 'uint16'] }, 'SPC_ERR_DELIVERY_OPTION_INVALID', 'dtype'],
  ])('refuses %j naming the option', (query, code, name) => {
    const { code: got, detail } = refusal(() => parseDeliveryQuery(query));
    expect(got).toBe(code);
    expect(detail).toContain(name);
  });

  it.each([
    [{ dtype: 'uint8' as const }, 'mesh', 'dtype'],
    [{ max_triangles: 10 }, 'volume', 'max_triangles'],
    [{ format: 'npy' }, 'mesh', 'format'],
    [{ format: 'glb', compress: 'meshopt' }, 'volume', 'compress'],
    [{ format: 'stl', compress: 'meshopt' }, 'mesh', 'compress'],
    [{ compress: 'meshopt' }, 'mesh', 'compress'],
    [{ format: 'glb', normals: false as const }, 'mesh', 'normals'],
    [{ format: 'obj', normals: false as const }, 'volume', 'normals'],
    [{ max_dim: 4 }, 'image', 'max_dim'],
  ])('refuses %j on a %s result', (options, type, name) => {
    const { code, detail } = refusal(() => checkDeliveryFits(options, type));
    expect(code).toBe('SPC_ERR_DELIVERY_OPTION_MISFIT');
    expect(detail).toContain(name);
  });

  it('accepts options that fit', () => {
    expect(() => checkDeliveryFits({ format: 'glb', compress: 'meshopt', max_triangles: 5 }, 'mesh')).not.toThrow();
    expect(() => checkDeliveryFits({ dtype: 'uint8', window: [0, 1], max_dim: 2 }, 'volume')).not.toThrow();
    expect(() => checkDeliveryFits({ format: 'obj', normals: false }, 'mesh')).not.toThrow();
  });

  it('reads normals=false, and leaves out normals=true (the default) so a delivery has one key', () => {
    expect(parseDeliveryQuery({ format: 'obj', normals: 'false' })).toEqual({ format: 'obj', normals: false });
    expect(parseDeliveryQuery({ format: 'obj', normals: 'true' })).toEqual({ format: 'obj' });
  });

  it('gives the headset client its profile unless it asked for something', () => {
    const settings = { clientProfiles: true, headsetTriangles: 1234 };
    expect(withClientProfile({}, 'volume', 'GodotEngine/4.3.stable (Linux)', settings)).toEqual({ dtype: 'uint8', max_dim: 256 });
    expect(withClientProfile({}, 'mesh', 'GodotEngine/4.3', settings)).toEqual({ max_triangles: 1234 });
    expect(withClientProfile({ dtype: 'float32' }, 'volume', 'GodotEngine/4.3', settings)).toEqual({ dtype: 'float32' });
    expect(withClientProfile({}, 'volume', 'curl/8', settings)).toEqual({});
    expect(withClientProfile({}, 'volume', 'GodotEngine/4.3', { ...settings, clientProfiles: false })).toEqual({});
  });
});

describe('delivery serve options', () => {
  it('reads --client-profiles and --headset-triangles from flags and the environment', () => {
    expect(parseServeOptions(['--client-profiles', 'off', '--headset-triangles', '300000']).host_options).toMatchObject({
      clientProfiles: false,
      headsetTriangles: 300000,
    });
    expect(parseServeOptions([], { VITRINE_CLIENT_PROFILES: 'on', VITRINE_HEADSET_TRIANGLES: '42' }).host_options).toMatchObject({
      clientProfiles: true,
      headsetTriangles: 42,
    });
    expect(parseServeOptions([]).host_options.clientProfiles).toBeUndefined();
    expect(() => parseServeOptions(['--client-profiles', 'maybe'])).toThrow(/client-profiles/);
    expect(() => parseServeOptions(['--headset-triangles', '0'])).toThrow(/headset-triangles/);
  });
});

describe('content encoding', () => {
  it('prefers br, then gzip, honouring q=0 and *', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0, identity')).toBeNull();
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
