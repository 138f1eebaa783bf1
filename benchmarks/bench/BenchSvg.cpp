#include "BenchSvg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace divopt::bench {

namespace {

const char *const Colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
                               "#8c564b", "#17becf", "#e377c2", "#7f7f7f"};
const char *const FailColour = "#d62728";

const char *colour(size_t I) { return Colours[I % (sizeof Colours / sizeof *Colours)]; }

std::string num(double X, const char *Format = "%.1f") {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, Format, X);
  return Buf;
}

std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += C == '<'    ? "&lt;"
           : C == '>'  ? "&gt;"
           : C == '&'  ? "&amp;"
           : C == '\'' ? "&apos;"
                       : std::string(1, C);
  return Out;
}

// A tick step of 1, 2 or 5 times a power of ten giving about five ticks.
double tickStep(double Range) {
  double Raw = Range / 5, Power = std::pow(10.0, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0})
    if (M * Power >= Raw)
      return M * Power;
  return 10 * Power;
}

std::string tickLabel(double V, double Step) {
  int Decimals = std::max(0, int(-std::floor(std::log10(Step) + 1e-9)));
  char Format[16];
  std::snprintf(Format, sizeof Format, "%%.%df", Decimals);
  return num(std::fabs(V) < Step * 1e-6 ? 0.0 : V, Format);
}

// [Lo, Hi] covering the values and 0, widened to whole ticks.
struct Range {
  double Lo = 0, Hi = 1, Step = 0.2;
  void fit(const std::vector<double> &Values) {
    Lo = 0, Hi = 0;
    for (double V : Values) {
      Lo = std::min(Lo, V);
      Hi = std::max(Hi, V);
    }
    if (Hi - Lo < 1e-12)
      Hi = Lo + 1;
    // Headroom, so no point or bar touches the frame.
    double Pad = (Hi - Lo) * 0.05;
    Hi += Hi > 0 ? Pad : 0;
    Lo -= Lo < 0 ? Pad : 0;
    Step = tickStep(Hi - Lo);
    Lo = std::floor(Lo / Step + 1e-9) * Step;
    Hi = std::ceil(Hi / Step - 1e-9) * Step;
  }
};

void header(std::ostream &OS, double W, double H, const std::string &Title) {
  OS << "<?xml version='1.0' encoding='UTF-8'?>\n"
     << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
     << "' viewBox='0 0 " << W << ' ' << H << "' font-family='sans-serif' font-size='11'>\n"
     << "<style>.t{font-size:15px}.tx{text-anchor:middle}.ty{text-anchor:end}"
        ".frame{fill:none;stroke:#888}.grid{stroke:#e4e4e4}.ref{stroke:#444;"
        "stroke-dasharray:4 3}.lbl{font-size:9px;fill:#444}.fail{fill:" << FailColour
     << ";font-weight:bold}</style>\n"
     << "<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='" << W / 2 << "' y='22' class='t tx'>" << escape(Title) << "</text>\n";
}

void save(const std::string &Path, const std::string &Svg) {
  std::ofstream Out(Path);
  Out << Svg;
  if (!Out.flush())
    throw std::runtime_error(Path + ": cannot write the plot");
}

// Grid lines and tick labels of the y axis over [R.Lo, R.Hi].
template <typename ToY>
void yAxis(std::ostream &OS, const Range &R, double X0, double X1, ToY Sy) {
  for (double T = R.Lo; T <= R.Hi + R.Step * 1e-6; T += R.Step)
    OS << "<line x1='" << X0 << "' y1='" << num(Sy(T)) << "' x2='" << X1 << "' y2='"
       << num(Sy(T)) << "' class='grid'/><text x='" << X0 - 6 << "' y='" << num(Sy(T) + 4)
       << "' class='ty'>" << tickLabel(T, R.Step) << "</text>\n";
}

void yTitle(std::ostream &OS, const std::string &Label, double X, double Y) {
  OS << "<text transform='translate(" << X << ',' << num(Y) << ") rotate(-90)' class='tx'>"
     << escape(Label) << "</text>\n";
}

} // namespace

void writeScatterSvg(const std::string &Path, const ScatterPlot &P) {
  constexpr double W = 760, H = 560, Left = 70, Right = 190, Top = 40, Bottom = 70;
  std::vector<double> Xs, Ys;
  for (const ScatterSeries &S : P.Series)
    for (const ScatterPoint &Pt : S.Points) {
      Xs.push_back(Pt.X);
      Ys.push_back(Pt.Y);
    }
  Range RX, RY;
  if (P.Diagonal) {
    std::vector<double> Both = Xs;
    Both.insert(Both.end(), Ys.begin(), Ys.end());
    RX.fit(Both);
    RY = RX;
  } else {
    RX.fit(Xs);
    RY.fit(Ys);
  }
  double X0 = Left, X1 = W - Right, Y0 = Top, Y1 = H - Bottom;
  auto Sx = [&](double X) { return X0 + (X - RX.Lo) / (RX.Hi - RX.Lo) * (X1 - X0); };
  auto Sy = [&](double Y) { return Y1 - (Y - RY.Lo) / (RY.Hi - RY.Lo) * (Y1 - Y0); };

  std::ostringstream OS;
  header(OS, W, H, P.Title);
  yAxis(OS, RY, X0, X1, Sy);
  for (double T = RX.Lo; T <= RX.Hi + RX.Step * 1e-6; T += RX.Step)
    OS << "<line x1='" << num(Sx(T)) << "' y1='" << Y0 << "' x2='" << num(Sx(T)) << "' y2='" << Y1
       << "' class='grid'/><text x='" << num(Sx(T)) << "' y='" << Y1 + 16 << "' class='tx'>"
       << tickLabel(T, RX.Step) << "</text>\n";
  OS << "<rect x='" << X0 << "' y='" << Y0 << "' width='" << X1 - X0 << "' height='" << Y1 - Y0
     << "' class='frame'/>\n";
  if (P.Diagonal)
    OS << "<line x1='" << num(Sx(RX.Lo)) << "' y1='" << num(Sy(RX.Lo)) << "' x2='"
       << num(Sx(RX.Hi)) << "' y2='" << num(Sy(RX.Hi)) << "' class='ref'/>\n";
  OS << "<text x='" << (X0 + X1) / 2 << "' y='" << Y1 + 36 << "' class='tx'>"
     << escape(P.XLabel) << "</text>\n";
  yTitle(OS, P.YLabel, 18, (Y0 + Y1) / 2);
  if (!P.Footnote.empty())
    OS << "<text x='" << X0 << "' y='" << H - 10 << "' class='lbl'>" << escape(P.Footnote)
       << "</text>\n";

  for (size_t I = 0; I < P.Series.size(); ++I) {
    const ScatterSeries &S = P.Series[I];
    const char *C = colour(I);
    OS << "<g class='series' data-series='" << escape(S.Name) << "'>\n";
    for (const ScatterPoint &Pt : S.Points) {
      OS << "<circle cx='" << num(Sx(Pt.X)) << "' cy='" << num(Sy(Pt.Y)) << "' r='4' fill='"
         << (Pt.Hollow ? "white" : C) << "' stroke='" << C << "' stroke-width='1.5'><title>"
         << escape(S.Name + ": " + Pt.Label + " (" + num(Pt.X) + ", " + num(Pt.Y) + ")")
         << "</title></circle>";
      if (!Pt.Label.empty())
        OS << "<text x='" << num(Sx(Pt.X) + 6) << "' y='" << num(Sy(Pt.Y) - 5)
           << "' class='lbl'>" << escape(Pt.Label) << "</text>";
      OS << '\n';
    }
    double LY = Y0 + 10 + 20 * double(I);
    OS << "<circle cx='" << X1 + 20 << "' cy='" << LY << "' r='4' fill='" << C << "'/><text x='"
       << X1 + 30 << "' y='" << LY + 4 << "'>" << escape(S.Name) << "</text>\n</g>\n";
  }
  if (std::any_of(P.Series.begin(), P.Series.end(), [](const ScatterSeries &S) {
        return std::any_of(S.Points.begin(), S.Points.end(),
                           [](const ScatterPoint &Pt) { return Pt.Hollow; });
      })) {
    double LY = Y0 + 10 + 20 * double(P.Series.size());
    OS << "<circle cx='" << X1 + 20 << "' cy='" << LY << "' r='4' fill='white' stroke='#444'/>"
       << "<text x='" << X1 + 30 << "' y='" << LY + 4 << "'>memory-bound app</text>\n";
  }
  OS << "</svg>\n";
  save(Path, OS.str());
}

void writeBarsSvg(const std::string &Path, const BarChart &C) {
  constexpr double Left = 70, Right = 150, Top = 40, Bottom = 80, PlotH = 360, BarW = 11,
                   GroupGap = 14;
  double GroupW = BarW * double(C.Series.size()) + GroupGap;
  double W = Left + Right + std::max(480.0, GroupW * double(C.Groups.size()));
  double H = Top + PlotH + Bottom;
  std::vector<double> Values;
  for (const BarGroup &G : C.Groups)
    for (const Bar &B : G.Bars)
      if (B.Value)
        Values.push_back(*B.Value);
  if (C.Reference)
    Values.push_back(*C.Reference);
  Range R;
  R.fit(Values);
  double X0 = Left, X1 = W - Right, Y0 = Top, Y1 = Top + PlotH;
  auto Sy = [&](double Y) { return Y1 - (Y - R.Lo) / (R.Hi - R.Lo) * (Y1 - Y0); };

  std::ostringstream OS;
  header(OS, W, H, C.Title);
  yAxis(OS, R, X0, X1, Sy);
  OS << "<rect x='" << X0 << "' y='" << Y0 << "' width='" << X1 - X0 << "' height='" << Y1 - Y0
     << "' class='frame'/>\n";
  yTitle(OS, C.YLabel, 18, (Y0 + Y1) / 2);
  for (size_t G = 0; G < C.Groups.size(); ++G) {
    double GX = X0 + GroupGap / 2 + GroupW * double(G);
    OS << "<text x='" << num(GX + BarW * double(C.Series.size()) / 2) << "' y='" << Y1 + 16
       << "' class='tx'>" << escape(C.Groups[G].Label) << "</text>\n";
  }
  for (size_t S = 0; S < C.Series.size(); ++S) {
    OS << "<g class='series' data-series='" << escape(C.Series[S]) << "'>\n";
    for (size_t G = 0; G < C.Groups.size(); ++G) {
      if (S >= C.Groups[G].Bars.size())
        continue;
      const Bar &B = C.Groups[G].Bars[S];
      double X = X0 + GroupGap / 2 + GroupW * double(G) + BarW * double(S);
      if (!B.Value) {
        OS << "<text x='" << num(X + BarW / 2) << "' y='" << num(Sy(0) - 3)
           << "' class='lbl tx'>-</text>\n";
        continue;
      }
      double Top0 = std::min(Sy(*B.Value), Sy(0)), Height = std::fabs(Sy(*B.Value) - Sy(0));
      OS << "<rect x='" << num(X) << "' y='" << num(Top0) << "' width='" << BarW - 1
         << "' height='" << num(std::max(Height, 0.5)) << "' fill='"
         << (B.Failed ? FailColour : colour(S)) << "'><title>"
         << escape(C.Groups[G].Label + " " + C.Series[S] + ": " + num(*B.Value, "%.3g") +
                   (B.Tooltip.empty() ? "" : " (" + B.Tooltip + ")"))
         << "</title></rect>";
      if (B.Failed)
        OS << "<text x='" << num(X + BarW / 2) << "' y='" << num(Top0 - 3)
           << "' class='fail tx'>FAIL</text>";
      OS << '\n';
    }
    double LY = Y0 + 10 + 18 * double(S);
    OS << "<rect x='" << X1 + 14 << "' y='" << LY - 8 << "' width='10' height='10' fill='"
       << colour(S) << "'/><text x='" << X1 + 30 << "' y='" << LY + 1 << "'>"
       << escape(C.Series[S]) << "</text>\n</g>\n";
  }
  if (C.Reference)
    OS << "<line x1='" << X0 << "' y1='" << num(Sy(*C.Reference)) << "' x2='" << X1 << "' y2='"
       << num(Sy(*C.Reference)) << "' class='ref'/>\n";
  if (!C.Footnote.empty())
    OS << "<text x='" << X0 << "' y='" << H - 12 << "' class='lbl'>" << escape(C.Footnote)
       << "</text>\n";
  OS << "</svg>\n";
  save(Path, OS.str());
}

} // namespace divopt::bench
