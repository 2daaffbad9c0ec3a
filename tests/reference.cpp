#include "reference.h"

#include "sim/search.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace test {
namespace {

constexpr double floatEps = 1.0 / (1 << 23);

double wrapInto(double x, double L) {
    return x - 2 * L * std::floor((x + L) / (2 * L));
}

// A velocity component in packing steps, as common.glsl's packVelocity computes it in float:
// nearbyint rounds half to even, as roundEven does.
int32_t packedSteps(float v, float scale) {
    return int32_t(std::clamp(std::nearbyint(v * scale), -511.0f, 511.0f));
}

} // namespace

uint32_t packVelocity(const float* v, float maxSpeed) {
    const float scale = sim::velocityPackScale(maxSpeed);
    uint32_t word = 0;
    for (int a = 0; a < 3; ++a) word |= uint32_t(packedSteps(v[a], scale) + 512) << (10 * a);
    return word;
}

ReferenceStep referenceStep(const sim::State& in, const sim::Params& p, bool packedVelocity) {
    const float packScale = sim::velocityPackScale(p.maxSpeed), packStep = sim::velocityPackStep(p.maxSpeed);
    const uint32_t n = in.count();
    const double L = p.domainHalf;
    const double r1 = p.cohesionRadius, r2 = p.separationRadius, r3 = p.alignmentRadius;
    const double rMax = std::max({r1, r2, r3});
    // How far the GPU's float distance can be from the exact one: a few roundings of values up to
    // 2L (the displacement, an image shift) and of the distance itself.
    const double distSlack = 4 * floatEps * (2 * L + rMax);
    const double ulpL = 2 * L * floatEps;

    ReferenceStep out;
    out.state.data.resize(in.data.size());
    out.velocityTolerance.assign(n, 0);
    out.ambiguous.assign(n, false);
    out.neighbours.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        const float* bi = &in.data[size_t(i) * 6];
        double coh[3] = {0, 0, 0}, sep[3] = {0, 0, 0}, ali[3] = {0, 0, 0};
        double cohAbs = 0, sepAbs = 0, aliAbs = 0;
        uint32_t nCoh = 0, nSep = 0, nAli = 0;
        int64_t aliSteps[3] = {0, 0, 0}; // with packedVelocity: the sums of the packed steps
        for (uint32_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const float* bj = &in.data[size_t(j) * 6];
            double d[3];
            bool nearWrap = false;
            for (int a = 0; a < 3; ++a) {
                d[a] = wrapInto(double(bj[a]) - double(bi[a]), L);
                nearWrap |= std::abs(std::abs(d[a]) - L) < distSlack;
            }
            const double dist = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (dist < rMax + distSlack) {
                for (double r : {r1, r2, r3})
                    if (std::abs(dist - r) < distSlack) out.ambiguous[i] = true;
                if (nearWrap) out.ambiguous[i] = true;
            }
            if (dist < rMax) out.neighbours[i]++;
            const double dAbs = std::abs(d[0]) + std::abs(d[1]) + std::abs(d[2]);
            if (dist < r1) {
                for (int a = 0; a < 3; ++a) coh[a] += d[a];
                cohAbs += dAbs;
                nCoh++;
            }
            if (dist < r2) {
                for (int a = 0; a < 3; ++a) sep[a] += d[a];
                sepAbs += dAbs;
                nSep++;
            }
            if (dist < r3) {
                for (int a = 0; a < 3; ++a) {
                    const int32_t q = packedSteps(bj[3 + a], packScale);
                    aliSteps[a] += q;
                    const double v = packedVelocity ? double(q) * packStep : double(bj[3 + a]);
                    if (!packedVelocity) ali[a] += v;
                    aliAbs += std::abs(v);
                }
                nAli++;
            }
        }
        if (packedVelocity)
            for (int a = 0; a < 3; ++a) ali[a] = double(aliSteps[a]) * packStep;
        // Rule 4: away from the predator (wrapped as the GPU's is), S (1/|d| - 1/R) d within R.
        double flee[3] = {0, 0, 0}, fleeTol = 0;
        if (p.predator) {
            double d[3];
            bool nearWrap = false;
            for (int a = 0; a < 3; ++a) {
                d[a] =
                    wrapInto(double(bi[a]) - double(sim::wrapCoordinate(p.predatorPos[a], p.domainHalf)), L);
                nearWrap |= std::abs(std::abs(d[a]) - L) < distSlack;
            }
            const double dist = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            const double R = p.predatorRadius;
            if (nearWrap && dist < R + distSlack) out.ambiguous[i] = true;
            if (dist > 0 && dist < R)
                for (int a = 0; a < 3; ++a) flee[a] = p.predatorScale * (1 / dist - 1 / R) * d[a];
            // The displacement's rounding (an ulp of 2L a component) turns its direction by ulpL / |d|.
            if (dist > 0 && dist < R + distSlack)
                fleeTol = std::abs(p.predatorScale) * (2 * ulpL / dist + 8 * floatEps);
        }
        double v[3];
        for (int a = 0; a < 3; ++a) {
            double dv = 0;
            if (nCoh) dv += coh[a] / nCoh * p.cohesionScale;
            dv -= sep[a] * p.separationScale;
            if (nAli) dv += ali[a] / nAli * p.alignmentScale;
            v[a] = double(bi[3 + a]) + dv + flee[a];
        }
        // Float rounding of the GPU's sums: each term's displacement is off by up to an ulp of 2L,
        // and each of the n additions by eps of the running magnitude.
        const double tol =
            std::abs(p.cohesionScale) * (ulpL + 2 * floatEps * nCoh * cohAbs / std::max(nCoh, 1u)) +
            std::abs(p.separationScale) * (nSep * ulpL + 2 * floatEps * nSep * sepAbs) +
            std::abs(p.alignmentScale) * (2 * floatEps * nAli * aliAbs / std::max(nAli, 1u)) + fleeTol;
        const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (speed > p.maxSpeed)
            for (double& c : v) c *= p.maxSpeed / speed;
        out.velocityTolerance[i] = 8 * tol + 8 * floatEps * (1 + speed);
        float* bo = &out.state.data[size_t(i) * 6];
        for (int a = 0; a < 3; ++a) {
            bo[a] = float(wrapInto(double(bi[a]) + v[a] * p.dt, L));
            bo[3 + a] = float(v[a]);
        }
    }
    return out;
}

Comparison compareStates(const sim::State& gpu, const ReferenceStep& ref, const sim::Params& p) {
    Comparison c;
    const double L = p.domainHalf;
    for (uint32_t i = 0; i < gpu.count(); ++i) {
        if (ref.ambiguous[i]) {
            c.ambiguous++;
            continue;
        }
        c.compared++;
        const float* g = &gpu.data[size_t(i) * 6];
        const float* r = &ref.state.data[size_t(i) * 6];
        const double vTol = ref.velocityTolerance[i];
        const double pTol = vTol * p.dt + 8 * 2 * L * floatEps;
        double worst = 0;
        bool bad = false;
        for (int a = 0; a < 3; ++a) {
            const double dv = std::abs(double(g[3 + a]) - double(r[3 + a]));
            double dp = std::abs(double(g[a]) - double(r[a]));
            dp = std::min(dp, std::abs(2 * L - dp));   // on the torus
            if (!(g[a] >= -L && g[a] < L)) bad = true; // positions stay in [-L, L)
            if (!(dv <= vTol) || !(dp <= pTol)) bad = true;
            worst = std::max({worst, dv / vTol, dp / pTol});
        }
        if (bad) {
            if (c.mismatches == 0) {
                std::ostringstream s;
                s << "boid " << i << " (" << ref.neighbours[i] << " neighbours): gpu p=(" << g[0] << ","
                  << g[1] << "," << g[2] << ") v=(" << g[3] << "," << g[4] << "," << g[5]
                  << "), reference p=(" << r[0] << "," << r[1] << "," << r[2] << ") v=(" << r[3] << ","
                  << r[4] << "," << r[5] << "), error/tolerance " << worst;
                c.firstMismatch = s.str();
            }
            c.mismatches++;
        }
    }
    return c;
}

} // namespace test
