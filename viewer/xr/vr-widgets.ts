/**
 * @module vr-widgets
 * The VR panel's controls, made of `@pmndrs/uikit` containers and text: a slider (pointer down
 * on the track and drag; the value follows the ray's point along it), a switch, a row of
 * choices, a −/+ stepper for unbounded numbers, and a read-only value for what VR cannot edit
 * (text: edit it on the page). Changes are reported as the page's fields report them: `drag`
 * while the slider moves, `commit` when it is let go or a button is pressed.
 */
import { Container, Text, type ThreeEvent } from '@pmndrs/uikit';
import * as THREE from 'three';
import type { ParameterProperty } from '../../core/wire/wire-types.ts';
import type { ChangeMode } from '../panels/params/param-field.ts';
import { fieldKind, sliderStep } from '../panels/params/param-check.ts';
import { VR_THEME as T } from './vr-theme.ts';

/** One control and how to show a value from elsewhere (a page edit, a peer). */
export interface VrWidget {
  readonly element: Container;
  setValue(value: unknown): void;
}

export type WidgetChange = (value: unknown, mode: ChangeMode) => void;

function format(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toPrecision(6))) : '–';
  return value === undefined ? '–' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** Where along `track` (0 at its left edge, 1 at its right) a world point lies. */
export function fractionAlong(track: THREE.Object3D, point: THREE.Vector3): number {
  const local = point.clone().applyMatrix4(track.matrixWorld.clone().invert());
  return THREE.MathUtils.clamp(local.x + 0.5, 0, 1);
}

function button(label: string, onClick: () => void, width = 40): Container {
  return panelButton(buttonText(label), onClick, { paddingX: 16, minWidth: width });
}

/** A slider over `prop`'s range; `valueText` (when given) says its value. */
export function createVrSlider(prop: ParameterProperty, onChange: WidgetChange, valueText?: Text): VrWidget & { track: Container } {
  const min = prop.minimum ?? 0;
  const max = prop.maximum ?? 1;
  const step = sliderStep(prop);
  const fill = new Container({ width: '0%', height: '100%', backgroundColor: T.accentDim, borderRadius: T.radius, pointerEvents: 'none' });
  let dragging = false;
  let current: unknown;
  const show = (value: unknown): void => {
    current = value;
    const fraction = typeof value === 'number' && max > min ? THREE.MathUtils.clamp((value - min) / (max - min), 0, 1) : 0;
    fill.setProperties({ width: `${Number((fraction * 100).toFixed(2))}%` });
    valueText?.setProperties({ text: format(value) });
  };
  const at = (event: ThreeEvent): number => {
    const raw = min + fractionAlong(track, event.point) * (max - min);
    const snapped = Math.round((raw - min) / step) * step + min;
    return THREE.MathUtils.clamp(prop.type === 'integer' ? Math.round(snapped) : Number(snapped.toPrecision(12)), min, max);
  };
  const track = new Container({
    width: '100%',
    height: 36,
    backgroundColor: T.surface,
    borderRadius: T.radius,
    onPointerDown: (event) => {
      dragging = true;
      const value = at(event);
      show(value);
      onChange(value, 'drag');
    },
    onPointerMove: (event) => {
      if (!dragging) return;
      const value = at(event);
      if (value === current) return;
      show(value);
      onChange(value, 'drag');
    },
    onPointerUp: () => {
      if (!dragging) return;
      dragging = false;
      onChange(current, 'commit');
    },
  });
  track.add(fill);
  return { element: track, track, setValue: (value) => !dragging && show(value) };
}

function toggle(onChange: WidgetChange, valueText: Text): VrWidget {
  let on = false;
  const knob = new Container({ width: 26, height: 26, borderRadius: 13, backgroundColor: T.text, pointerEvents: 'none' });
  const pill = new Container({ width: 60, height: 34, padding: 4, borderRadius: 17, flexDirection: 'row', backgroundColor: T.surface });
  const show = (value: unknown): void => {
    on = value === true;
    pill.setProperties({ justifyContent: on ? 'flex-end' : 'flex-start', backgroundColor: on ? T.accentDim : T.surface });
    valueText.setProperties({ text: on ? 'on' : 'off' });
  };
  pill.setProperties({
    onClick: () => {
      show(!on);
      onChange(on, 'commit');
    },
  });
  pill.add(knob);
  return { element: pill, setValue: show };
}

function choices(options: readonly unknown[], onChange: WidgetChange, valueText: Text): VrWidget {
  const row = new Container({ flexDirection: 'row', flexWrap: 'wrap', gap: 8 });
  const buttons = options.map((option) => {
    const element = button(String(option), () => {
      show(option);
      onChange(option, 'commit');
    });
    row.add(element);
    return { option, element };
  });
  const show = (value: unknown): void => {
    for (const b of buttons) b.element.setProperties({ backgroundColor: b.option === value ? T.accentDim : T.surface });
    valueText.setProperties({ text: format(value) });
  };
  return { element: row, setValue: show };
}

function stepper(prop: ParameterProperty, onChange: WidgetChange, valueText: Text): VrWidget {
  let current = 0;
  const step = prop.type === 'integer' ? 1 : 0.1;
  const bump = (sign: number): void => {
    let next = Number((current + sign * step).toPrecision(12));
    if (typeof prop.minimum === 'number') next = Math.max(prop.minimum, next);
    if (typeof prop.maximum === 'number') next = Math.min(prop.maximum, next);
    show(next);
    onChange(next, 'commit');
  };
  const row = new Container({ flexDirection: 'row', gap: 8 });
  row.add(button('-', () => bump(-1), 56), button('+', () => bump(1), 56));
  const show = (value: unknown): void => {
    if (typeof value === 'number') current = value;
    valueText.setProperties({ text: format(value) });
  };
  return { element: row, setValue: show };
}

/** The labelled control of parameter `name`; `track` is set for sliders and `control` is the part to point at (automation aims at them). */
export function createVrWidget(
  name: string,
  prop: ParameterProperty,
  onChange: WidgetChange,
): VrWidget & { track?: Container; control?: Container } {
  const valueText = new Text({ text: '–', fontSize: T.fontSize, color: T.accent });
  const head = new Container({ flexDirection: 'row', justifyContent: 'space-between', width: '100%' });
  head.add(new Text({ text: name, fontSize: T.fontSize, color: T.text }), valueText);
  const kind = fieldKind(prop);
  const control =
    kind === 'slider'
      ? createVrSlider(prop, onChange, valueText)
      : kind === 'boolean'
        ? toggle(onChange, valueText)
        : kind === 'enum'
          ? choices(prop.enum ?? [], onChange, valueText)
          : kind === 'number'
            ? stepper(prop, onChange, valueText)
            : null;
  const element = new Container({ flexDirection: 'column', gap: 6, width: '100%' });
  element.add(head);
  if (control) element.add(control.element);
  else element.add(new Text({ text: 'edit this one on the page', fontSize: T.smallFont, color: T.muted }));
  return {
    element,
    track: control && 'track' in control ? (control.track as Container) : undefined,
    control: control?.element,
    setValue: (value) => (control ? control.setValue(value) : valueText.setProperties({ text: format(value) })),
  };
}

/** A button's label (the pointer goes through it to the button). */
export function buttonText(text: string): Text {
  return new Text({ text, fontSize: T.fontSize, color: T.text, pointerEvents: 'none' });
}

/** A panel button showing `text`: the look every button of the VR panel shares (`size` for a wider one). */
export function panelButton(text: Text, onClick: () => void, size: { paddingX?: number; minWidth?: number } = {}): Container {
  const element = new Container({
    paddingX: 14,
    height: 40,
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: T.surface,
    borderRadius: T.radius,
    onClick,
    ...size,
  });
  element.add(text);
  return element;
}

/** A panel button with a label. */
export function textButton(label: string, onClick: () => void): Container {
  return panelButton(buttonText(label), onClick);
}
