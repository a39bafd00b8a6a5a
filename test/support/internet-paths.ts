/**
 * What in a synthesized template could reach the internet: internet and NAT gateways (and their attachments, EIPs,
 * egress-only gateways), routes to 0.0.0.0/0 or ::/0, subnets that give public IPs, and Lambda functions or SageMaker
 * models (or inference-component endpoint configs) outside isolated subnets. An isolated subnet here is one declared
 * in the template whose route table has no default route; a function or model without a VpcConfig runs on AWS's
 * network, which counts as a path (so a serverless endpoint, which takes no VPC, is one).
 */

type Resource = { Type: string; Properties?: Record<string, any> };
type Template = { Resources?: Record<string, Resource> };

const GATEWAY_TYPES = [
  'AWS::EC2::InternetGateway', 'AWS::EC2::EgressOnlyInternetGateway', 'AWS::EC2::NatGateway', 'AWS::EC2::EIP',
  'AWS::EC2::VPCGatewayAttachment', 'AWS::EC2::TransitGateway', 'AWS::EC2::VPNGateway',
];

/** The logical id a `Ref` or `Fn::GetAtt` points at. */
function refOf(value: unknown): string | undefined {
  const v = value as Record<string, any> | undefined;
  if (v?.Ref) return v.Ref;
  if (v?.['Fn::GetAtt']) return v['Fn::GetAtt'][0];
  return undefined;
}

/** Subnets whose route table has no default route (0.0.0.0/0 or ::/0). */
export function isolatedSubnets(template: Template): Set<string> {
  const resources = template.Resources ?? {};
  const defaultRouteTables = new Set(Object.values(resources)
    .filter((r) => r.Type === 'AWS::EC2::Route' && (r.Properties?.DestinationCidrBlock === '0.0.0.0/0' || r.Properties?.DestinationIpv6CidrBlock === '::/0'))
    .map((r) => refOf(r.Properties?.RouteTableId)));
  const tableOfSubnet = new Map<string, string | undefined>();
  for (const r of Object.values(resources)) {
    if (r.Type === 'AWS::EC2::SubnetRouteTableAssociation') tableOfSubnet.set(refOf(r.Properties?.SubnetId)!, refOf(r.Properties?.RouteTableId));
  }
  return new Set(Object.entries(resources)
    .filter(([id, r]) => r.Type === 'AWS::EC2::Subnet' && !r.Properties?.MapPublicIpOnLaunch && !defaultRouteTables.has(tableOfSubnet.get(id)))
    .map(([id]) => id));
}

/** Every way out of the template's network, one line each; empty when there is none. */
export function internetPaths(template: Template): string[] {
  const resources = template.Resources ?? {};
  const isolated = isolatedSubnets(template);
  const out: string[] = [];
  const outsideIsolated = (subnetIds: unknown): string[] => {
    const ids = Array.isArray(subnetIds) ? subnetIds : [];
    if (ids.length === 0) return ['(no subnets)'];
    return ids.map((s) => refOf(s) ?? JSON.stringify(s)).filter((id) => !isolated.has(id));
  };
  for (const [id, r] of Object.entries(resources)) {
    const p = r.Properties ?? {};
    if (GATEWAY_TYPES.includes(r.Type)) out.push(`${id}: ${r.Type}`);
    if (r.Type === 'AWS::EC2::Route' && (p.DestinationCidrBlock === '0.0.0.0/0' || p.DestinationIpv6CidrBlock === '::/0')) {
      out.push(`${id}: route to ${p.DestinationCidrBlock ?? p.DestinationIpv6CidrBlock}`);
    }
    if (r.Type === 'AWS::EC2::Subnet' && p.MapPublicIpOnLaunch) out.push(`${id}: subnet maps public IPs on launch`);
    if (r.Type === 'AWS::Lambda::Function') {
      const bad = p.VpcConfig ? outsideIsolated(p.VpcConfig.SubnetIds) : ['(no VpcConfig)'];
      if (bad.length > 0) out.push(`${id}: Lambda function outside isolated subnets: ${bad.join(', ')}`);
    }
    if (r.Type === 'AWS::SageMaker::Model') {
      const bad = p.VpcConfig ? outsideIsolated(p.VpcConfig.Subnets) : ['(no VpcConfig)'];
      if (bad.length > 0) out.push(`${id}: SageMaker model outside isolated subnets: ${bad.join(', ')}`);
    }
    if (r.Type === 'AWS::SageMaker::EndpointConfig' && (p.ProductionVariants ?? []).some((v: any) => v.ModelName === undefined)) {
      const bad = p.VpcConfig ? outsideIsolated(p.VpcConfig.Subnets) : ['(no VpcConfig)'];
      if (bad.length > 0) out.push(`${id}: inference-component endpoint config outside isolated subnets: ${bad.join(', ')}`);
    }
  }
  return out;
}
