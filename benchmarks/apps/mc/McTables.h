// The case tables of the marching-cubes app, built here rather than copied:
// each voxel is split into the six tetrahedra that share its main diagonal
// (corner 0 to corner 7), and each tetrahedron is polygonized by the marching
// tetrahedra rule (Doi & Koide): one inside or one outside corner gives one
// triangle, two inside corners give a quad (two triangles). Neighbouring
// voxels split their shared faces along the same diagonal, so the surface has
// no cracks. A voxel's case, one bit per corner that lies inside, selects 0 to
// 12 triangles; that count is what makes threads diverge.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace mc {

// Corner c of a voxel sits at offset (c & 1, (c >> 1) & 1, (c >> 2) & 1).
constexpr uint32_t MaxTriangles = 12;
constexpr uint32_t MaxVertices = 3 * MaxTriangles;

// Per case: the triangle count and, per vertex, the voxel edge it lies on,
// coded (inside corner << 3) | outside corner.
struct CaseTables {
  std::array<uint8_t, 256> TriangleCount{};
  std::array<uint8_t, 256 * MaxVertices> Edges{};
};

namespace detail {

inline std::array<float, 3> cornerOffset(uint32_t C) {
  return {float(C & 1), float((C >> 1) & 1), float((C >> 2) & 1)};
}

// Orders a triangle's vertices so that its normal (counter-clockwise rule)
// points from the inside corners to the outside ones; the test uses edge
// midpoints, which lie on the same side as any interpolated points.
inline void orient(std::array<std::pair<uint32_t, uint32_t>, 3> &Tri,
                   const std::vector<uint32_t> &Inside,
                   const std::vector<uint32_t> &Outside) {
  std::array<std::array<float, 3>, 3> M;
  for (int V = 0; V < 3; ++V) {
    auto A = cornerOffset(Tri[V].first), B = cornerOffset(Tri[V].second);
    for (int K = 0; K < 3; ++K)
      M[V][K] = (A[K] + B[K]) / 2;
  }
  float U[3], W[3], Out[3] = {0, 0, 0};
  for (int K = 0; K < 3; ++K) {
    U[K] = M[1][K] - M[0][K];
    W[K] = M[2][K] - M[0][K];
  }
  for (uint32_t C : Outside)
    for (int K = 0; K < 3; ++K)
      Out[K] += cornerOffset(C)[K] / Outside.size();
  for (uint32_t C : Inside)
    for (int K = 0; K < 3; ++K)
      Out[K] -= cornerOffset(C)[K] / Inside.size();
  float N[3] = {U[1] * W[2] - U[2] * W[1], U[2] * W[0] - U[0] * W[2],
                U[0] * W[1] - U[1] * W[0]};
  if (N[0] * Out[0] + N[1] * Out[1] + N[2] * Out[2] < 0)
    std::swap(Tri[1], Tri[2]);
}

} // namespace detail

inline CaseTables buildCaseTables() {
  // The six tetrahedra: corner 0, then one axis step, then a second, then 7.
  const uint32_t Axes[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
  CaseTables T;
  for (uint32_t Case = 0; Case < 256; ++Case) {
    uint32_t Count = 0;
    for (const auto &Step : Axes) {
      uint32_t First = 1u << Step[0];
      const uint32_t Tet[4] = {0, First, First | (1u << Step[1]), 7};
      std::vector<uint32_t> In, Out;
      for (uint32_t C : Tet)
        ((Case >> C) & 1 ? In : Out).push_back(C);
      std::vector<std::array<std::pair<uint32_t, uint32_t>, 3>> Tris;
      if (In.size() == 1)
        Tris.push_back({{{In[0], Out[0]}, {In[0], Out[1]}, {In[0], Out[2]}}});
      else if (In.size() == 3)
        Tris.push_back({{{In[0], Out[0]}, {In[1], Out[0]}, {In[2], Out[0]}}});
      else if (In.size() == 2) {
        // The quad's corners in cyclic order: a-c, a-d, b-d, b-c.
        Tris.push_back({{{In[0], Out[0]}, {In[0], Out[1]}, {In[1], Out[1]}}});
        Tris.push_back({{{In[0], Out[0]}, {In[1], Out[1]}, {In[1], Out[0]}}});
      }
      for (auto &Tri : Tris) {
        detail::orient(Tri, In, Out);
        for (int V = 0; V < 3; ++V)
          T.Edges[Case * MaxVertices + 3 * Count + V] =
              static_cast<uint8_t>((Tri[V].first << 3) | Tri[V].second);
        ++Count;
      }
    }
    T.TriangleCount[Case] = static_cast<uint8_t>(Count);
  }
  return T;
}

} // namespace mc
