<?xml version="1.0" encoding="UTF-8"?>
<!-- seawx: the 1-2-3 danger area, red and translucent with a dashed outline (SLD 1.1 / SE 1.1). -->
<StyledLayerDescriptor version="1.1.0" xmlns="http://www.opengis.net/sld" xmlns:se="http://www.opengis.net/se" xmlns:ogc="http://www.opengis.net/ogc" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.opengis.net/sld http://schemas.opengis.net/sld/1.1.0/StyledLayerDescriptor.xsd">
  <NamedLayer><se:Name>danger_areas</se:Name><UserStyle><se:Name>danger_areas</se:Name>
    <se:FeatureTypeStyle>
      <se:Rule><se:Name>danger_areas</se:Name>
        <se:PolygonSymbolizer><se:Fill><se:SvgParameter name="fill">#ff4040</se:SvgParameter><se:SvgParameter name="fill-opacity">0.2</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#c0001a</se:SvgParameter><se:SvgParameter name="stroke-width">2</se:SvgParameter><se:SvgParameter name="stroke-dasharray">6 3</se:SvgParameter></se:Stroke></se:PolygonSymbolizer>
      </se:Rule>
    </se:FeatureTypeStyle>
  </UserStyle></NamedLayer>
</StyledLayerDescriptor>
