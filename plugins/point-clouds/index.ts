/**
 * @module point-clouds
 * Point clouds with per-point colours and scalars: two chaotic attractors traced by a single
 * trajectory, and a spiral galaxy.
 */
import type { Integer, PointCloudResult, SpecimenDeclaration } from 'vitrine';
import { colourByScalar, EMBER } from './colour-ramp.ts';
import { populateGalaxy } from './galaxy-model.ts';
import { integrateFlow } from './integrate-flow.ts';

/**
 * The Lorenz attractor: one trajectory of Lorenz's 1963 convection model, coloured by speed
 * (scalars hold the speed). Scaled to about two units across, y up.
 *
 * @param points Number of points stored along the trajectory.
 * @param sigma Prandtl number σ.
 * @param rho Rayleigh number ρ (chaos sets in near 24.74).
 * @param beta Geometric factor β.
 * @param dt Integration time step.
 * @minimum points 100
 * @maximum points 2000000
 * @minimum sigma 0.1
 * @maximum sigma 50
 * @minimum rho 0.1
 * @maximum rho 200
 * @minimum beta 0.1
 * @maximum beta 10
 * @minimum dt 0.0005
 * @maximum dt 0.02
 */
export function lorenz_attractor(points: Integer = 120000, sigma = 10, rho = 28, beta = 2.6667, dt = 0.004): PointCloudResult {
  const flow = integrateFlow(
    (p, out) => {
      out[0] = sigma * (p[1]! - p[0]!);
      out[1] = p[0]! * (rho - p[2]!) - p[1]!;
      out[2] = p[0]! * p[1]! - beta * p[2]!;
    },
    [1, 1, 1],
    points,
    dt,
  );
  // Lorenz's z (the convection roll's temperature) becomes "up", centred at the wings.
  const scale = 1 / 25;
  const centre = rho - 1;
  const xyz = flow.points;
  for (let i = 0; i < xyz.length; i += 3) {
    const x = xyz[i]!, y = xyz[i + 1]!, z = xyz[i + 2]!;
    xyz[i] = x * scale;
    xyz[i + 1] = (z - centre) * scale;
    xyz[i + 2] = y * scale;
  }
  return { type: 'point_cloud', points: xyz, colors: colourByScalar(flow.speeds, EMBER), scalars: flow.speeds };
}

/**
 * Thomas' cyclically symmetric attractor, dx/dt = sin y - b x (and cyclic): a particle
 * wandering through a 3D lattice of vortices. Coloured by speed; scalars hold the speed.
 *
 * @param points Number of points stored along the trajectory.
 * @param b Damping; chaotic below about 0.208, a regular orbit above.
 * @param dt Integration time step.
 * @minimum points 100
 * @maximum points 2000000
 * @minimum b 0.01
 * @maximum b 0.35
 * @minimum dt 0.005
 * @maximum dt 0.2
 */
export function thomas_attractor(points: Integer = 120000, b = 0.18, dt = 0.05): PointCloudResult {
  const flow = integrateFlow(
    (p, out) => {
      out[0] = Math.sin(p[1]!) - b * p[0]!;
      out[1] = Math.sin(p[2]!) - b * p[1]!;
      out[2] = Math.sin(p[0]!) - b * p[2]!;
    },
    [0.1, 0, -0.1],
    points,
    dt,
    2,
  );
  const xyz = flow.points;
  for (let i = 0; i < xyz.length; i++) xyz[i] = xyz[i]! / 4;
  return { type: 'point_cloud', points: xyz, colors: colourByScalar(flow.speeds, EMBER), scalars: flow.speeds };
}

/**
 * A spiral galaxy: a warm bulge and logarithmic spiral arms of young blue stars. Colours are
 * star colours; scalars hold each star's surface temperature in kelvin.
 *
 * @param stars Number of stars.
 * @param arms Number of spiral arms.
 * @param pitch Pitch angle of the arms in degrees: small values wind them tightly.
 * @param bulge Fraction of stars in the central bulge, from 0 to 0.9.
 * @param seed Random seed.
 * @minimum stars 1000
 * @maximum stars 2000000
 * @minimum arms 1
 * @maximum arms 8
 * @minimum pitch 5
 * @maximum pitch 60
 * @minimum bulge 0
 * @maximum bulge 0.9
 * @minimum seed 0
 * @maximum seed 1000000
 */
export function spiral_galaxy(stars: Integer = 150000, arms: Integer = 2, pitch = 16, bulge = 0.18, seed: Integer = 42): PointCloudResult {
  const galaxy = populateGalaxy({ stars, arms, pitchDegrees: pitch, bulge, seed });
  return { type: 'point_cloud', points: galaxy.points, colors: galaxy.colors, scalars: galaxy.temperatures };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'lorenz-attractor',
    function: 'lorenz_attractor',
    display_name: 'Lorenz attractor',
    description: 'The butterfly of chaos: one trajectory of the Lorenz system, coloured by speed.',
    tags: ['point cloud', 'chaos', 'dynamical systems'],
    thumbnail: './thumbnails/lorenz-attractor.png',
    story:
      'In 1963 the meteorologist Edward Lorenz boiled a model of atmospheric convection down to three equations and found that its solutions never settle ' +
      'and never repeat. Every point here is one instant of a single trajectory, looping around two wings without ever crossing itself. Two starting ' +
      'points a hair apart soon end up on different wings: the butterfly effect, and the reason weather forecasts fade after a week or two. Warm colours ' +
      'mark where the flow runs fastest.',
  },
  {
    id: 'thomas-attractor',
    function: 'thomas_attractor',
    display_name: 'Thomas attractor',
    description: "René Thomas' cyclically symmetric attractor, coloured by speed.",
    tags: ['point cloud', 'chaos', 'dynamical systems'],
    thumbnail: './thumbnails/thomas-attractor.png',
    story:
      'René Thomas, a biologist studying feedback loops in gene networks, wrote down the most symmetric chaotic system he could: each coordinate is ' +
      'pushed by the sine of the next and gently damped. The result is a trajectory that tumbles through a lattice of vortices with a threefold symmetry ' +
      'you can see by looking down the diagonal. Raise the damping b above about 0.21 and the chaos collapses into a simple loop; lower it and the ' +
      'particle roams ever further.',
  },
  {
    id: 'spiral-galaxy',
    function: 'spiral_galaxy',
    display_name: 'Spiral galaxy',
    description: 'A toy disc galaxy: warm bulge, blue spiral arms and pink star-forming regions.',
    tags: ['point cloud', 'astronomy'],
    thumbnail: './thumbnails/spiral-galaxy.png',
    story:
      'Spiral arms are not fixed chains of stars but traffic jams: density waves that stars drift through, slowing down and crowding as they pass. The ' +
      'crowding squeezes gas into new stars, so the arms glow with hot, young, blue suns and pink clouds of ionised hydrogen, while the older yellow ' +
      'stars spread between them and pile up in the central bulge. The arms follow logarithmic spirals, the same curve as a nautilus shell. Every point ' +
      'is a star; its scalar is its surface temperature.',
  },
];
