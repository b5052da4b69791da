"""The seashell's surface: a sibling module the plugin imports (it travels in the bundle)."""
import math


def shell_point(t, phi, growth, size):
    """The point at angle `phi` around the tube, `t` radians along the spiral, times `size`."""
    scale = math.exp(growth * t)
    # Each whorl's tube just meets the last one: its radius is a fixed share of its distance
    # from the axis, and it drops by about a tube's width per turn.
    radius = 0.42 * scale
    centre = 0.62 * scale
    x = (centre + radius * math.cos(phi)) * math.cos(t)
    y = (centre + radius * math.cos(phi)) * math.sin(t)
    z = 1.2 * radius * math.sin(phi) - 1.1 * scale
    return (x * size, z * size, y * size)
