"""`math_text`: a vault's TeX math as text a terminal shows (seen on a 13k-page student
Zettelkasten whose math notes read `\\det(A) = \\lambda_{1}\\lambda_{2}\\dots`), and what it
cannot write as text left exactly as written."""

from __future__ import annotations

import pytest

from okf_explorer.core.math_text import display_math, math_text

READ = {
    r"\det(A) = \lambda_{1}\lambda_{2}\dots \lambda_{n} \neq 0": "det(A) = λ₁λ₂… λₙ ≠ 0",
    r"A \text{ invertible} \implies rank(M) = n": "A  invertible ⟹ rank(M) = n",
    r"m = \frac{a+d}{2}": "m = (a+d)/2",  # never `a+d/2`
    r"\frac{\partial C}{\partial S}": "∂C/∂S",
    r"\frac12": "1/2",
    r"\sqrt{x^2+1} + \sqrt[3]{y}": "√(x²+1) + ³√y",
    r"\mathbb{R}^n \subseteq \mathcal{O}(n \log n)": "ℝⁿ ⊆ 𝒪(n log n)",
    # an LLM wiki of quantitative finance: the indicator function, and its P&L
    r"\mathbb{1}[v] \cdot P\&L": "𝟙[v] · P&L",
    r"\sum_{i=1}^{n} x_i^2": "∑ᵢ₌₁ⁿ xᵢ²",
    r"x_{\max} \in \{1, 2\}": "xₘₐₓ ∈ {1, 2}",
    r"\left( \frac{a}{b} \right)": "( a/b )",
    r"\lim_{x\to\infty} f(x)": "lim_{x→∞} f(x)",  # no subscript arrow: braces kept
    r"M_{n \times n}": "M_{n × n}",
    # a research vault's category theory: one character needs no braces, sub- or superscript
    r"\mathbf{Hom}_{\mathscr C}(X, Y) + y^{\theta} + x_{}": "𝐇𝐨𝐦_𝒞(X, Y) + y^θ + x_{}",
    r"\vec{v} \cdot \hat{u} = \tilde{n}": "𝐯 · û = ñ",  # one character each: a vector bold
    r"\overrightarrow{0} \in W_{1}, \mathbf{x} \neq \bm{\mu}": "𝟎 ∈ W₁, 𝐱 ≠ μ",
    r"a \not\in B, x \not= y": "a ∉ B, x ≠ y",  # negated where Unicode has the two as one
    r"E[X] = \sum_{k=0}^{n} k \binom{n}{k}": "E[X] = ∑ₖ₌₀ⁿ k (n choose k)",
    r"{n \choose k} = {n - 1 \choose k - 1}": "(n choose k) = (n - 1 choose k - 1)",
    # a research vault writes fractions with TeX's infix `\over`, braces inside its parts
    r"P_{ij} = {A_{ij}\over \sum_jA_{ij}} = {1 \over d_i}": "Pᵢⱼ = Aᵢⱼ/(∑ⱼAᵢⱼ) = 1/dᵢ",
    r"D^{1\over 2} + a \over b": "(D^{1/2} + a)/b",
    r"\overline x + {a \over b": "x\u0304 + a \\over b",  # unbalanced: `\over` not rewritten
    r"M \xrightarrow{R_{r}} M_{next} \xleftarrow{} \underline{x}": "M ─Rᵣ→ Mₙₑₓₜ ← x",
    r"\operatorname{span}(S) \iff \alpha \leq \beta": "span(S) ⟺ α ≤ β",
    r"2\pi r \quad 50\%": "2πr   50%",
    r"a \equiv b \mod n": "a ≡ b mod n",
    r"A \vDash B, A \nvDash C, A \vdash B": "A ⊨ B, A ⊭ C, A ⊢ B",  # a math garden's logic
    r"(\text{for a matrix $a_1$})": "(for a matrix a₁)",  # math in text, as the garden writes
    r"a^p \equiv a \pmod{p}, \large MA = R \space\land\space S": "aᵖ ≡ a (mod p), MA = R  ∧ S",
    # an Italian calculus vault numbers its formulas in colour and writes `\ln{a}`
    r"\textcolor{orange}{1)}\ \lim_{ x \to 0 }{}\frac{\sin x}{x}": "1) lim_{ x → 0 } (sin x)/x",
    r"a = \color{red}{b} + \fcolorbox{red}{white}{c} + \colorbox{y}{\text{d}}": "a = b + c + d",
    r"\ln{a} + \log_{2}{n} + \sin\theta + \sin(x) + \ln a": "ln a + log₂ n + sin θ + sin(x) + ln a",
    # a study vault's estimators, means and annuities: a letter Unicode has no accented
    # form of takes the combining mark (drawn in its cell), a bar goes over several
    r"\hat{\rho}_k = \bar{X} + \hat\sigma": "\u03c1\u0302\u2096 = X\u0304 + \u03c3\u0302",
    r"\mathbf{X}\hat{\boldsymbol{\beta}}": "\U0001d417\u03b2\u0302",
    r"a_{\overline{n}|i} + \ddot{a}_{\overline{n}|}": "a_{n\u0304|i} + \u00e4_{n\u0304|}",
    r"0.2308\;\checkmark": "0.2308 ✓",  # its worked answers are ticked
    # text set over a symbol as its script; a brace's label after it
    r"X_i \stackrel{\text{iid}}{\sim} \text{Exp}(\theta) \underset{x}{\max}": "Xᵢ ∼ⁱⁱᵈ Exp(θ) maxₓ",
    r"\text{IBNR} = \underbrace{\text{Pure IBNR}}_{\text{unreported}} + \overbrace{a+b}": (
        "IBNR = Pure IBNR (unreported) + a+b"
    ),
    # a fraction an operand follows is set apart: `2/3x` reads 2/(3x), `1/2ⁿ` 1/(2ⁿ)
    r"x_t = \frac{2}{3}x_{t-1} + \tfrac{1}{3} \lambda": "xₜ = (2/3)xₜ₋₁ + (1/3) λ",
    r"\frac{1}{2}^n + \frac{1}{2} + \frac{d}{dx}f(x)": "(1/2)ⁿ + 1/2 + (d/dx)f(x)",
    r"\overline{AB} + \overline x + \mathring{e}_x": "A\u0305B\u0305 + x\u0304 + e\u030a\u2093",
}


@pytest.mark.parametrize(("tex", "text"), READ.items())
def test_a_formula_reads_as_text(tex: str, text: str) -> None:
    assert math_text(tex) == text


@pytest.mark.parametrize(
    "tex",
    [
        r"\foo{x}{y} + 1",  # a macro it does not know, with its arguments
        r"\widehat{HEIGHT}",  # an accent but a bar over more than one letter
        r"\vec{x_1} + \not\mapsto",  # no bold subscript, no one negated character
        r"\sqrt[k,m]{x}",  # an index with no superscript form
        r"\mathcal{1}",  # no script digit one
        r"\begin{bmatrix}\begin{bmatrix}1\end{bmatrix} & 2\end{bmatrix}",  # one in another
        # kept on its lines too
        "\\begin{cases} a \\\\\n \\begin{aligned} b \\end{aligned} \\end{cases}",
    ],
)
def test_what_it_cannot_write_as_text_stays_as_written(tex: str) -> None:
    assert math_text(tex) == tex
    assert math_text(tex, display=True) == tex


def test_a_displayed_matrix_is_a_grid_between_tall_delimiters() -> None:
    """A Quartz garden's linear algebra notes and a Korean ML vault write matrices
    (`bmatrix`, `\\left( \\begin{array} … \\right)`), shown as TeX before: 331 rows of
    one vault. Cells centre in their columns, text sits on the middle line; inline, a
    matrix stays as written."""
    rotation = (
        r"R = \begin{bmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{bmatrix}"
    )
    assert math_text(rotation, display=True) == ("R = ⎡ cos θ  -sin θ ⎤\n    ⎣ sin θ   cos θ ⎦")
    product = r"\begin{bmatrix} x \\ y \end{bmatrix} = R \cdot \begin{bmatrix} a \\ b \end{bmatrix}"
    assert math_text(product, display=True) == "⎡ x ⎤ = R · ⎡ a ⎤\n⎣ y ⎦       ⎣ b ⎦"
    array = r"\left(\begin{array}{ll} 1 & 20 \\ 0 & 1 \\ 0 & 0 \end{array}\right)"
    assert math_text(array, display=True) == "⎛ 1  20 ⎞\n⎜ 0   1 ⎟\n⎝ 0   0 ⎠"
    sign = r"f = \left\{\begin{array}{ll} 1 & x>0 \\ 0 & x=0 \\ -1 & x<0 \end{array}\right."
    assert math_text(sign, display=True) == "    ⎧  1  x>0\nf = ⎨  0  x=0\n    ⎩ -1  x<0"
    assert math_text(r"\det\begin{vmatrix} a & b \\ c & d \end{vmatrix}", display=True) == (
        "det │ a  b │\n    │ c  d │"
    )
    quartz = (  # one `equation` around matrices side by side, primes as superscripts
        "\\begin{equation}\n\\left[\\begin{array}{l}\nx^{\\prime} \\\\\ny^{\\prime}\n"
        "\\end{array}\\right]=\\left[\\begin{array}{l}\nx \\\\\ny\n\\end{array}\\right]\n"
        "\\end{equation}"
    )
    assert math_text(quartz, display=True) == "⎡ x′ ⎤ = ⎡ x ⎤\n⎣ y′ ⎦   ⎣ y ⎦"
    assert math_text(r"\begin{equation} E = mc^2 \end{equation}", display=True) == "E = mc²"
    assert math_text(r"\begin{bmatrix}1 & 2\\3 & 4\end{bmatrix}") == (
        r"\begin{bmatrix}1 & 2\\3 & 4\end{bmatrix}"
    )


def test_cases_are_one_line_a_case_values_in_a_column() -> None:
    """An Italian university vault writes its recurrences and piecewise functions as
    `cases` (339 formulas across the vaults we read), all shown as TeX before: values
    and conditions in columns after a tall brace, as TeX sets them."""
    tex = (
        "T(n) = \\begin{cases}\n2\\cdot T\\left( \\frac{n}{2} \\right) + \\Theta(n) & "
        "\\text{se } n>1 \\\\\n\\Theta(1) & \\text{se } n = 1\n\\end{cases}"
    )
    assert math_text(tex, display=True) == (
        "T(n) = ⎧ 2· T( n/2 ) + Θ(n)   se n>1\n       ⎩ Θ(1)                 se n = 1"
    )
    both = (  # two side by side (`c.e.` of an irrational inequality), `~` a space
        "c.e. \\begin{cases} g(x) < 0 \\\\ f(x) \\geq 0 \\end{cases} ~\\cup~ "
        "\\begin{cases} g(x) \\geq 0 \\\\ f(x) > 0 \\\\ x = 1 \\end{cases}"
    )
    assert math_text(both, display=True).split("\n") == [
        "     ⎧ g(x) < 0     ⎧ g(x) ≥ 0",
        "c.e. ⎩ f(x) ≥ 0   ∪ ⎨ f(x) > 0",
        "                    ⎩ x = 1",
    ]
    assert math_text(tex) == tex  # inline: as written


def test_an_aligned_display_is_one_row_a_line() -> None:
    tex = "\\begin{aligned}\na &= b + c \\\\\n  &= \\frac{d}{2}\n\\end{aligned}"
    assert math_text(tex, display=True) == "a = b + c\n= d/2"
    assert math_text(tex) == tex  # inline: an environment stays as written
    # A row written over two lines is one line (TeX reads a line break as a space), and
    # the space asked for below a row (`\\[6pt]`) is not shown, nor a `%` comment.
    tex = "\\begin{align}\n\\|u\\|^2 % the norm\n&= \\langle u, u \\rangle \\\\[6pt]\n"
    tex += "&= 1\n\\end{align}"
    assert math_text(tex, display=True) == "‖u‖² = ⟨ u, u ⟩\n= 1"
    assert math_text("a\n+ b", display=True) == "a + b"


def test_an_aligned_display_holding_matrices_is_a_grid_a_row() -> None:
    """A math garden's linear algebra notes work a determinant out row by row, matrices
    in the rows (`\\begin{align} … &= 1 \\cdot \\begin{vmatrix} …`): 26 formulas of the
    vault were shown as their TeX. Each row is its grid, a blank line apart."""
    tex = (
        "\\begin{align}\nB &= \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix} \\\\\n"
        "\\det{B} &= 1 \\cdot 4 - 2 \\cdot \\begin{vmatrix} 3 \\end{vmatrix} \\\\[5pt]\n"
        "&= -2\n\\end{align}"
    )
    text, grid = display_math(tex)
    assert grid and text.split("\n") == [
        "B = ⎡ 1  2 ⎤",
        "    ⎣ 3  4 ⎦",
        "",
        "det B = 1 · 4 - 2 · | 3 |",
        "",
        "= -2",
    ]
    assert display_math("\\begin{aligned} a &= b \\\\ c \\end{aligned}") == ("a = b\nc", False)


def test_a_bussproofs_proof_is_drawn_as_a_tree() -> None:
    """A math garden's logic notes write inference rules as bussproofs proofs (19 of
    them, shown as TeX before): premises side by side over a rule, the conclusion centred
    under it, a rule's label beside it, `\\noLine` drawing none; a proof that does not come
    out whole stays as written."""
    modus_ponens = "\\begin{prooftree}\n\\AXC{$\\varphi \\to \\psi$}\n\\AXC{$\\varphi$}\n"
    modus_ponens += "\\BIC{$\\psi$}\n\\end{prooftree}"
    text, grid = display_math(modus_ponens)
    assert grid and text.split("\n") == ["φ → ψ   φ", "─────────", "    ψ"]
    labelled = (
        "\\begin{prooftree}\\AXC{$A$}\\AXC{$B$}\\RL{$\\land I$}\\BIC{$A \\land B$}"
        "\\LeftLabel{1.}\\doubleLine\\UIC{$A$}\\end{prooftree}"
    )
    assert display_math(labelled)[0].split("\n") == [
        "   A   B",
        "   ───── ∧ I",
        "   A ∧ B",
        "1. ═════",
        "     A",
    ]
    stacked = "\\begin{prooftree}\\noLine\\AXC{premise 1}\\UIC{premise 2}\\UIC{conclusion}"
    assert display_math(stacked + "\\end{prooftree}")[0].split("\n") == [
        "premise 1",
        "premise 2",
        "──────────",
        "conclusion",
    ]
    for broken in ("\\AXC{a}\\BIC{b}", "\\AXC{a}\\AXC{b}", "\\AXC{a} text", "\\foo{a}"):
        tex = f"\\begin{{prooftree}}{broken}\\end{{prooftree}}"
        assert display_math(tex) == (tex, False)
