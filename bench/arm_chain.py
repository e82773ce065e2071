"""The six-link hinge arm of the Python benchmarks (bench/control.py, bench/gradients.py) as MJCF
body text: one writer for both, each choosing its base, link length and attributes."""


def hinge_chain(links, base, length, joint_attrs="", geom_attrs=""):
    """(opening, closing) MJCF of `links` nested bodies link0, link1, …: hinge j_i about y, z, y, …,
    a geom from the body's origin to `length` along x; link0 at `base` ("x y z"), each next link
    at the end of the one before. joint_attrs and geom_attrs (each starting with a space) are
    added to every joint and geom. Put anything to hang from the last link between the two."""
    opening, closing = "", ""
    for i in range(links):
        pad = " " * (2 * i + 4)
        pos = base if i == 0 else f"{length} 0 0"
        axis = "0 1 0" if i % 2 == 0 else "0 0 1"
        opening += (f'{pad}<body name="link{i}" pos="{pos}">\n'
                    f'{pad}  <joint name="j{i}" type="hinge" axis="{axis}"{joint_attrs}/>\n'
                    f'{pad}  <geom fromto="0 0 0 {length} 0 0"{geom_attrs}/>\n')
        closing = f"{pad}</body>\n" + closing
    return opening, closing
