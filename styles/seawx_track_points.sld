<?xml version="1.0" encoding="UTF-8"?>
<!-- seawx: observed positions by category (SLD 1.1 / SE 1.1). -->
<StyledLayerDescriptor version="1.1.0" xmlns="http://www.opengis.net/sld" xmlns:se="http://www.opengis.net/se" xmlns:ogc="http://www.opengis.net/ogc" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.opengis.net/sld http://schemas.opengis.net/sld/1.1.0/StyledLayerDescriptor.xsd">
  <NamedLayer><se:Name>track_points</se:Name><UserStyle><se:Name>track_points</se:Name>
    <se:FeatureTypeStyle>
      <se:Rule><se:Name>TD</se:Name><se:Description><se:Title>Tropical Depression</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TD</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#5ebaff</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>SS</se:Name><se:Description><se:Title>Subtropical Storm</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>SS</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#00faf4</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>TS</se:Name><se:Description><se:Title>Tropical Storm</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TS</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#00faf4</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>TC1</se:Name><se:Description><se:Title>Category 1</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TC1</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#ffffcc</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>TC2</se:Name><se:Description><se:Title>Category 2</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TC2</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#ffe775</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>TC3</se:Name><se:Description><se:Title>Category 3</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TC3</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#ffc140</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>TC4</se:Name><se:Description><se:Title>Category 4</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TC4</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#ff8f20</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>TC5</se:Name><se:Description><se:Title>Category 5</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>TC5</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#ff6060</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>LO</se:Name><se:Description><se:Title>Low Pressure Center</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>LO</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#80ccff</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>PT</se:Name><se:Description><se:Title>Post-Tropical Cyclone</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>PT</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#80ccff</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>DS</se:Name><se:Description><se:Title>Dissipating</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>DS</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#80ccff</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>IN</se:Name><se:Description><se:Title>Inland</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>IN</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#80ccff</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>XX</se:Name><se:Description><se:Title>Unknown</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>category_code</ogc:PropertyName><ogc:Literal>XX</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#c0c0c0</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>other</se:Name><se:Description><se:Title>Other / null</se:Title></se:Description>
        <se:ElseFilter/>
        <se:PointSymbolizer><se:Graphic><se:Mark><se:WellKnownName>circle</se:WellKnownName><se:Fill><se:SvgParameter name="fill">#c0c0c0</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#232323</se:SvgParameter><se:SvgParameter name="stroke-width">0.5</se:SvgParameter></se:Stroke></se:Mark><se:Size>8</se:Size></se:Graphic></se:PointSymbolizer>
      </se:Rule>
    </se:FeatureTypeStyle>
  </UserStyle></NamedLayer>
</StyledLayerDescriptor>
